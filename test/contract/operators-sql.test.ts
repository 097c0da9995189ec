/**
 * Every operator's SQL, on every database, against its in-memory meaning: for one text column
 * holding values that tell the databases apart (case, trailing space, LIKE wildcards, NULL), each
 * operator and needle selects on SQLite, PostgreSQL and MariaDB exactly the rows whose
 * `evaluate` (the contract's statement of the operator) is true.
 */
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, type DatabaseKind } from '../../templates/contract/database.ts';
import { OPERATOR_NAMES, OPERATOR_SPECS, takesList, type FilterScalar, type LikePosition, type Operator, type SqlKit, type SqlParam } from '../../templates/contract/operators.ts';
import { sessionSetup } from '../../templates/runtime/database-mysql.ts';
import { dialects } from '../../templates/runtime/dialect/index.ts';
import { columnExpressions } from '../../templates/runtime/engine/values.ts';

const ROWS: readonly (string | null)[] = ['Apple', 'apple', 'apple ', 'app', 'a%b', 'ab', 'b_c', 'bxc', 'Zebra', '', null];
const NEEDLES: readonly string[] = ['apple', 'APPLE', 'app', 'a%', 'b_', 'e', ''];

interface Piece {
  readonly sql: string;
  readonly params: readonly SqlParam[];
}

const ALWAYS: Piece = { sql: '1=1', params: [] };
const NEVER: Piece = { sql: '1=0', params: [] };
const KIT: SqlKit<Piece> = { sql: (sql, params = []) => ({ sql, params }), not: (p) => ({ sql: `NOT (${p.sql})`, params: p.params }), always: ALWAYS, never: NEVER };

function likePattern(position: LikePosition, needle: string): string {
  const escaped = needle.replace(/[\\%_]/g, (c) => `\\${c}`);
  return position === 'contains' ? `%${escaped}%` : position === 'start' ? `${escaped}%` : `%${escaped}`;
}

/** The WHERE of `v <operator> value` on a database, as the engine renders it for a string column. */
function where(database: DatabaseKind, operator: Operator, value: FilterScalar | readonly FilterScalar[]): Piece {
  const items = Array.isArray(value) ? value : [value as FilterScalar];
  return OPERATOR_SPECS[operator].sql[database]({
    kit: KIT,
    ...columnExpressions(dialects[database], 'v', 'string'),
    bind: (v) => v,
    value: items[0] ?? null,
    items,
    idMembership: () => undefined,
    likePattern,
  });
}

/** The rows `evaluate` keeps, by index. */
function expected(operator: Operator, value: FilterScalar | readonly FilterScalar[]): number[] {
  const items = Array.isArray(value) ? value : [value as FilterScalar];
  const compare = (a: unknown, b: unknown): number => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);
  return ROWS.flatMap((actual, index) => (OPERATOR_SPECS[operator].evaluate({ actual, value: items[0] ?? null, items, compare, text: String }) === true ? [index] : []));
}

/** Each operator with the values it is checked with. */
function cases(): [Operator, FilterScalar | readonly FilterScalar[]][] {
  return OPERATOR_NAMES.flatMap((operator): [Operator, FilterScalar | readonly FilterScalar[]][] => {
    const { arity } = OPERATOR_SPECS[operator];
    if (arity === 'unary')
      return [
        [operator, true],
        [operator, false],
      ];
    if (arity === 'pair')
      return [
        [operator, ['a', 'apple']],
        [operator, ['B', 'b~']],
      ];
    if (takesList(operator))
      return [
        [operator, ['apple', 'APP', 'ab']],
        [operator, []],
      ];
    return NEEDLES.map((needle): [Operator, FilterScalar] => [operator, needle]);
  });
}

type Run = (piece: Piece) => Promise<number[]>;

const sqlite = new Database(':memory:');
let pgClient: pg.Client;
let maria: mysql.Connection;
const runs: Partial<Record<DatabaseKind, Run>> = {};

beforeAll(async () => {
  sqlite.exec('CREATE TABLE t (i INTEGER, v TEXT)');
  const insert = sqlite.prepare('INSERT INTO t (i, v) VALUES (?, ?)');
  ROWS.forEach((v, i) => insert.run(i, v));
  runs.sqlite = async (piece) => (sqlite.prepare(`SELECT i FROM t WHERE ${piece.sql} ORDER BY i`).all(...piece.params) as { i: number }[]).map((r) => r.i);

  pgClient = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
  await pgClient.connect();
  await pgClient.query('CREATE TEMPORARY TABLE t (i INTEGER, v TEXT)');
  for (const [i, v] of ROWS.entries()) await pgClient.query('INSERT INTO t (i, v) VALUES ($1, $2)', [i, v]);
  runs.postgres = async (piece) => {
    let n = 0;
    const text = piece.sql.replace(/\?/g, () => `$${++n}`);
    return (await pgClient.query<{ i: number }>(`SELECT i FROM t WHERE ${text} ORDER BY i`, [...piece.params])).rows.map((r) => r.i);
  };

  // As the runtime has them: the session of database-mysql.ts (NO_BACKSLASH_ESCAPES, binary
  // collation), a utf8mb4_bin column as capi's MySQL migrations create, prepared statements.
  maria = await mysql.createConnection({ host: '127.0.0.1', port: 3306, user: 'root', multipleStatements: true });
  await maria.query(sessionSetup);
  await maria.query('CREATE DATABASE IF NOT EXISTS capi_contract_test CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci');
  await maria.query('USE capi_contract_test');
  await maria.query('CREATE TEMPORARY TABLE t (i INTEGER, v VARCHAR(255) COLLATE utf8mb4_bin, INDEX t_v (v))');
  for (const [i, v] of ROWS.entries()) await maria.query('INSERT INTO t (i, v) VALUES (?, ?)', [i, v]);
  runs.mysql = async (piece) => {
    const [rows] = await maria.execute(`SELECT i FROM t WHERE ${piece.sql} ORDER BY i`, [...piece.params]);
    return (rows as { i: number }[]).map((r) => r.i);
  };
});

afterAll(async () => {
  sqlite.close();
  await pgClient?.end();
  await maria?.end();
});

describe.each(DATABASE_KINDS)('operators on %s', (database) => {
  it.each(cases())('%s %j selects the rows evaluate keeps', async (operator, value) => {
    const run = runs[database];
    if (run === undefined) throw new Error(`no connection to ${database}`);
    expect(await run(where(database, operator, value))).toEqual(expected(operator, value));
  });
});

describe('SQL text', () => {
  it('keeps the SQLite and PostgreSQL text of every text operator', () => {
    expect(where('sqlite', 'contains', 'a').sql).toBe('instr(v, ?) > 0');
    expect(where('sqlite', 'startsWith', 'a')).toEqual({ sql: 'substr(v, 1, length(?)) = ?', params: ['a', 'a'] });
    expect(where('postgres', 'endsWith', 'a%')).toEqual({ sql: "v LIKE ? ESCAPE '\\'", params: ['%a\\%'] });
    expect(where('postgres', 'lt', 'a').sql).toBe('v COLLATE "C" < ?');
    expect(where('sqlite', 'containsi', 'A')).toEqual({ sql: "LOWER(v) LIKE LOWER(?) ESCAPE '\\'", params: ['%A%'] });
    expect(where('sqlite', 'notContains', '').sql).toBe('NOT (v IS NOT NULL)');
  });

  it('compares text byte-wise on MySQL through a binary cast', () => {
    expect(where('mysql', 'eq', 'a')).toEqual({ sql: '(v = ? AND CAST(v AS BINARY) = ?)', params: ['a', 'a'] });
    expect(where('mysql', 'in', ['a', 'b'])).toEqual({ sql: '(v IN (?, ?) AND CAST(v AS BINARY) IN (?, ?))', params: ['a', 'b', 'a', 'b'] });
    expect(where('mysql', 'lt', 'a').sql).toBe('CAST(v AS BINARY) < ?');
    expect(where('mysql', 'contains', 'a')).toEqual({ sql: "CAST(v AS BINARY) LIKE ? ESCAPE '\\'", params: ['%a%'] });
    expect(where('mysql', 'containsi', 'a').sql).toBe("LOWER(v) LIKE LOWER(?) ESCAPE '\\'");
  });

  // The binary cast alone hides the column from its index (a full scan per filter as the table
  // grows); equality and IN also test the column itself, so MariaDB can look it up.
  it.each([
    ['eq', 'apple'],
    ['in', ['apple', 'ab']],
  ] as const)('lets MySQL use the index of the column for %s', async (operator, value) => {
    const piece = where('mysql', operator, value);
    const [plan] = await maria.execute(`EXPLAIN SELECT i FROM t WHERE ${piece.sql}`, [...piece.params]);
    expect((plan as { possible_keys: string | null }[])[0]?.possible_keys).toBe('t_v');
  });
});
