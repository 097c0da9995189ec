/**
 * JSON written by SQL (dialect/json-text.ts) against the per-row path it stands in for: for
 * every stored value v of a column, the value the database writes into an object is
 * JSON.stringify(decoder(raw v)) or the fallback marker, and for the values the API writes it is
 * never the marker. Values are
 * stored in the example model's product table (a column of every scalar type) on SQLite and
 * PostgreSQL, including what only an import or a hand edit could store (SQLite's dynamic typing,
 * JSON text that is not JSON.stringify's). Random values come from fast-check with fixed seeds.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCALAR_TYPES, type ScalarType } from '../../contract/scalar-types.ts';
import { openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import type { Queryable, SqlValue } from '../database.ts';
import { fragment } from '../engine/sql.ts';
import { decoder } from '../engine/values.ts';
import { RENDER_FALLBACK } from './json-text.ts';
import { postgresDialect } from './postgres.ts';
import { sqliteDialect } from './sqlite.ts';
import type { Dialect } from './types.ts';

/** A stored value: SQL text with at most one `?`, and its parameter. */
interface Stored {
  readonly sql: string;
  readonly param?: SqlValue;
}

/** Values per column: `any` may fall back, `ordinary` (what the API writes) must not. */
interface ColumnCases {
  readonly column: string;
  readonly type: ScalarType;
  readonly any: readonly Stored[];
  readonly ordinary: readonly Stored[];
}

const runs = 300;
let seed = 1;
function sample<T>(arbitrary: fc.Arbitrary<T>, numRuns = runs): T[] {
  return fc.sample(arbitrary, { seed: seed++, numRuns });
}

const bound = (param: SqlValue): Stored => ({ sql: '?', param });
const cast = (type: string) => (param: SqlValue) => ({ sql: `CAST(? AS ${type})`, param });

// ---- values -------------------------------------------------------------------------------

const EDGE_NUMBERS = [
  0,
  -0,
  1,
  -1,
  0.5,
  0.1 + 0.2,
  1 / 3,
  123.456,
  19.99,
  1e21,
  1e-7,
  1e-6,
  1e-5,
  1e-4,
  9.999999999999999e-5,
  1e15,
  1e15 + 0.5,
  2 ** 53,
  2 ** 53 + 2,
  2 ** 60,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  -Number.MIN_VALUE,
  5e-324,
  4.35,
  0.000123,
  1234567890123456.8,
];

const double = fc.oneof(
  fc.double(),
  fc.constantFrom(...EDGE_NUMBERS),
  fc.integer().map((n) => n / 100),
  fc.integer({ min: -1e6, max: 1e6 }).map((n) => n / 7),
);
const finiteDouble = double.filter((n) => Number.isFinite(n));
/** Doubles both databases print in plain digits ([1e-4, 1e15)). */
const plainDouble = finiteDouble.filter((n) => n === 0 || (Math.abs(n) >= 1e-4 && Math.abs(n) < 1e15));
/**
 * Measurements as people write them: up to 15 significant digits. (Doubles that need 16 or 17
 * digits, like 0.1 + 0.2, fall back on SQLite when its 18-digit expansion is near a rounding tie.)
 */
const humanDouble = fc
  .tuple(plainDouble, fc.integer({ min: 1, max: 15 }))
  .map(([n, digits]) => Number(n.toPrecision(digits)))
  .filter((n) => n === 0 || (Math.abs(n) >= 1e-4 && Math.abs(n) < 1e15));
const price = fc.integer({ min: -10_000_000, max: 10_000_000 }).map((n) => n / 100);
const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const bigDigits = fc.oneof(int64, fc.constantFrom(2n ** 53n + 1n, 2n ** 63n - 1n, -(2n ** 63n), 9007199254740993n)).map(String);

/** Every character class JSON.stringify treats apart: controls, quotes, U+2028, astral, lone surrogates. */
const SPECIAL_CHARS = [...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)), '"', '\\', '/', '\u007f', '\u2028', '\u2029', '😀', '\ud800', '\udfff', 'é', '\ufeff'];
const anyText = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom(...SPECIAL_CHARS, 'a', '1', '-', ':', '.', ' ') }));
/** What PostgreSQL TEXT and JSONB hold (no NUL) and SQLite holds as valid UTF-8 (no lone surrogates). */
const storableText = anyText.map((s) =>
  s
    .replace(/\0/g, '')
    .replace(/[\ud800-\udfff]/g, (c, i: number, all: string) =>
      /[\ud800-\udbff][\udc00-\udfff]/.test(all.slice(i - 1, i + 1)) || /[\ud800-\udbff][\udc00-\udfff]/.test(all.slice(i, i + 2)) ? c : 'x',
    ),
);

const pad = (n: number, width: number) => String(n).padStart(width, '0');
const year = fc.integer({ min: 1, max: 9999 });
const ymd = fc.tuple(year, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 })).map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`);
const hms = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 999 }))
  .map(([h, m, s, ms]) => `${pad(h, 2)}:${pad(m, 2)}:${pad(s, 2)}.${pad(ms, 3)}`);
const instant = fc.date({ min: new Date('0001-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });
const isoTimestamp = instant.map((d) => d.toISOString());

/** JSON the API writes: objects and arrays of strings, booleans, null, integers and plain decimals. */
const ordinaryKey = fc.string({ unit: fc.constantFrom('a', 'b', 'é', '😀', ' ', '_', '.', '$', '[', '"', '\\', '\n', "'", '1') }).filter((k) => !/^[0-9]/.test(k));
const ordinaryString = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', 'é', '😀', '\u2028', '"', '\\', '/', '\n', '\t', '.', ',', ':', '{', '}', '[', ']', '0', '5') });
const ordinaryJsonValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    ordinaryString,
    fc.boolean(),
    fc.constant(null),
    fc.integer({ min: -1e9, max: 1e9 }),
    price,
    fc.integer({ min: 1, max: 99999 }).map((n) => n / 1000),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(ordinaryKey, tie('value'), { maxKeys: 5 }),
  ),
})).value;
/** Media rows' formats: what every populate of a media field reads. */
const formats = fc.record({
  thumbnail: fc.record({
    ext: fc.constant('.jpg'),
    url: fc.string(),
    hash: fc.string(),
    mime: fc.constant('image/jpeg'),
    name: fc.string(),
    path: fc.constant(null),
    size: price,
    width: fc.nat(4000),
    height: fc.nat(4000),
    sizeInBytes: fc.nat(),
  }),
});
const ordinaryJson = fc.oneof(ordinaryJsonValue, formats).map((v) => JSON.stringify(v));

const anyJsonValue = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const NUMBER_SPELLINGS = (n: number): string[] => [JSON.stringify(n), `${n}.0`, `${n}E0`, `${n}e+0`, n === 0 ? '-0' : `${n}0`, Number.isInteger(n) ? `${n}.000` : String(n).replace(/e/, 'E')];

/**
 * JSON text JSON.stringify would not write: whitespace, other escapes (`\/`, `\u0041`, upper-case
 * hex), other number spellings, duplicate and integer-like keys, chosen by `choices`.
 */
function messyJson(value: unknown, choices: readonly number[]): string {
  let at = 0;
  const pick = (n: number) => choices[at++ % choices.length]! % n;
  const space = () => ['', '', '', ' ', '\n', '\t', '\r\n  '][pick(7)]!;
  const string = (s: string) =>
    `"${[...s]
      .map((c) => {
        const code = c.codePointAt(0)!;
        if (pick(4) === 0 && code < 0x10000) return `\\u${code.toString(16).padStart(4, '0')}`.replace(/[a-f]/g, (h) => (pick(2) === 0 ? h.toUpperCase() : h));
        if (c === '/' && pick(2) === 0) return '\\/';
        return JSON.stringify(c).slice(1, -1);
      })
      .join('')}"`;
  const write = (v: unknown): string => {
    if (typeof v === 'number') return NUMBER_SPELLINGS(v)[pick(6)]!;
    if (typeof v === 'string') return string(v);
    if (Array.isArray(v)) return `[${space()}${v.map((e) => write(e)).join(`${space()},${space()}`)}${space()}]`;
    if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v).map(([k, e]) => `${string(k)}${space()}:${space()}${write(e)}`);
      if (pick(5) === 0) entries.push(`${string(pick(2) === 0 && entries.length > 0 ? Object.keys(v)[0]! : String(pick(20)))}:${write(pick(100))}`);
      if (pick(5) === 0) entries.unshift(`"${pick(3)}":${write(pick(10))}`);
      return `{${space()}${entries.join(`${space()},${space()}`)}${space()}}`;
    }
    return JSON.stringify(v);
  };
  return `${space()}${write(value)}${space()}`;
}

const messyJsonText = fc.tuple(anyJsonValue, fc.array(fc.nat(), { minLength: 1, maxLength: 40 })).map(([v, choices]) => messyJson(v, choices));
const JSON_EDGES = [
  '{"a":1.0}',
  '{"a":1E5}',
  '[-0]',
  '[1e21]',
  '[1e+21]',
  '[1e-7]',
  '[0.30000000000000004]',
  '[0.3000000000000000444]',
  '[9007199254740993]',
  '[9007199254740992]',
  '[12345678901234567890]',
  '[1e400]',
  '"\\/"',
  '"\\u0041"',
  '"\\u001f"',
  '"\\u001F"',
  '"\\ud800"',
  '"\\ud83d\\ude00"',
  '{"a":1,"a":2}',
  '{"b":1,"a":{"c":1,"c":[2]}}',
  '{"b":1,"1":2}',
  '{"1":1,"0":2}',
  '{"4294967295":1,"a":2}',
  '{"a\\"b":1.5}',
  '{"a\\\\":[0.5]}',
  '{"a\\nb":-0}',
  '{"\\u0061":1,"a":2}',
  '"abc"',
  '123',
  '1.5',
  'true',
  'null',
  'abc',
  '',
  '{a:1}',
  '[1,]',
  "{'a':1}",
  '[0x10]',
  '[.5]',
  '[+1]',
  '"a\tb"',
  `${'['.repeat(1200)}${']'.repeat(1200)}`,
  `${'['.repeat(900)}${']'.repeat(900)}`,
];

// ---- per database ---------------------------------------------------------------------------

/**
 * SQLite: the kinds whose storage capi's writes guarantee are rendered as stored without a check
 * (json-text.ts says why: a check per value costs a quarter of a populated read), so for them only
 * what the API and `capi import` write is stored here: text in text columns, 32-bit integers,
 * ISO timestamps, JSON.stringify's JSON. The checked kinds (numbers, booleans, days, times) get
 * everything a hand edit could store too. BLOBs are left out: no input path stores one, and a
 * statement meeting one fails, which the engine answers by reading rows (test/http/rendered.test.ts).
 */
function sqliteCases(): ColumnCases[] {
  const number = [...sample(double.map(bound)), ...sample(fc.integer().map(bound)), ...sample(bigDigits.map(cast('INTEGER'))), ...sample(anyText.map(bound), 50)];
  const trusted = (column: string, type: ScalarType, values: readonly Stored[]): ColumnCases => ({ column, type, any: values, ordinary: values });
  return [
    trusted('summary', 'text', [...sample(storableText.map(bound)), ...sample(double.map(cast('REAL')), 50)]),
    trusted('stock', 'integer', sample(int32.map(bound))),
    { column: 'price', type: 'decimal', any: number, ordinary: [...sample(price.map(bound)), ...sample(int32.map(bound), 50)] },
    { column: 'weight', type: 'float', any: number, ordinary: sample(humanDouble.map(bound)) },
    { column: 'serial_number', type: 'biginteger', any: number, ordinary: sample(int64.map(String).map(cast('INTEGER'))) },
    { column: 'in_stock', type: 'boolean', any: sample(fc.oneof(fc.boolean(), double, anyText).map(bound)), ordinary: sample(fc.boolean().map(bound)) },
    {
      column: 'release_date',
      type: 'date',
      any: [...sample(fc.oneof(ymd, isoTimestamp, anyText, fc.constantFrom('2024-01-15 junk', '20240115', '2024-1-5', '１２３４-01-01')).map(bound)), ...sample(double.map(bound), 50)],
      ordinary: sample(ymd.map(bound)),
    },
    {
      column: 'opening_time',
      type: 'time',
      any: [
        ...sample(fc.oneof(hms, anyText, fc.constantFrom('10:30', '10:30:00', '10:30:00.1', '10:30:00.123456', '10:30:00.000xyz', '1:30', 'noon', '24:00:00.000')).map(bound)),
        ...sample(double.map(bound), 50),
      ],
      ordinary: sample(hms.map(bound)),
    },
    trusted('available_at', 'datetime', sample(instant.map(bound))),
    trusted('specs', 'json', sample(ordinaryJson.map(bound), 600)),
  ];
}

function postgresCases(): ColumnCases[] {
  const decimalText = fc.oneof(
    price.map(String),
    plainDouble.map(String),
    fc.tuple(fc.stringMatching(/^-?[1-9][0-9]{0,34}$/), fc.stringMatching(/^[0-9]{0,34}$/)).map(([i, f]) => (f === '' ? i : `${i}.${f}`)),
    fc.stringMatching(/^-?0\.0{0,8}[1-9][0-9]{0,25}$/),
    fc.constantFrom('0', '-0', '0.000', '1e-7', '1e20', '123456789012345678901234567890', '0.1', '0.30000000000000004'),
  );
  const floatText = fc.oneof(
    double.map((n) => (Number.isNaN(n) ? 'NaN' : String(n))),
    fc.constantFrom('Infinity', '-Infinity', 'NaN', '-0', '1.0000000000000002'),
  );
  const dateText = fc.oneof(ymd, fc.constantFrom('infinity', '-infinity', '0001-01-01 BC', '4713-01-01 BC', '10000-01-01', '294276-12-31', '0999-06-30'));
  const timestampText = fc.oneof(
    isoTimestamp,
    fc.constantFrom('infinity', '-infinity', '0001-01-01T00:00:00Z', '0001-01-01T12:00:00Z', '0001-01-01 00:00:00+00 BC', '9999-12-31T23:59:59.999Z', '10000-01-01T00:00:00Z', '1850-06-01T00:00:00Z'),
  );
  const jsonbText = fc
    .oneof(
      fc.constantFrom(...JSON_EDGES.filter((t) => isJson(t) && !t.includes('\\ud800') && !t.includes('1e400'))),
      messyJsonText,
      anyJsonValue.map((v) => JSON.stringify(v)),
    )
    .filter((t) => isJson(t) && !t.includes('\\u0000') && !/[\ud800-\udfff]/.test(t.replace(/[\ud800-\udbff][\udc00-\udfff]/g, '')));
  return [
    { column: 'summary', type: 'text', any: sample(storableText.map(bound)), ordinary: sample(storableText.map(bound)) },
    { column: 'stock', type: 'integer', any: sample(int32.map(cast('integer'))), ordinary: sample(int32.map(cast('integer'))) },
    {
      column: 'price',
      type: 'decimal',
      any: sample(decimalText.map(cast('numeric')), 600),
      ordinary: sample(
        fc
          .oneof(price, fc.integer({ min: -1e9, max: 1e9 }))
          .map(String)
          .map(cast('numeric')),
      ),
    },
    { column: 'weight', type: 'float', any: sample(floatText.map(cast('float8')), 600), ordinary: sample(plainDouble.map(String).map(cast('float8'))) },
    { column: 'serial_number', type: 'biginteger', any: sample(bigDigits.map(cast('bigint'))), ordinary: sample(int64.map(String).map(cast('bigint'))) },
    { column: 'in_stock', type: 'boolean', any: [bound(true), bound(false)], ordinary: [bound(true), bound(false)] },
    { column: 'release_date', type: 'date', any: sample(dateText.map(cast('date'))), ordinary: sample(ymd.map(cast('date'))) },
    { column: 'opening_time', type: 'time', any: sample(fc.oneof(hms, fc.constantFrom('24:00:00', '00:00', '23:59:59.999', '12:00:00.5')).map(cast('time'))), ordinary: sample(hms.map(cast('time'))) },
    { column: 'available_at', type: 'datetime', any: sample(timestampText.map(cast('timestamptz'))), ordinary: sample(instant.map((d) => d.toISOString()).map(cast('timestamptz'))) },
    { column: 'specs', type: 'json', any: sample(jsonbText.map(cast('jsonb')), 800), ordinary: sample(ordinaryJson.map(cast('jsonb')), 600) },
  ];
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

// ---- the check ------------------------------------------------------------------------------

interface Mismatch {
  readonly column: string;
  readonly stored: unknown;
  readonly expected: string;
  readonly rendered: unknown;
}

/** Stores `values` in `column` (one row each) and compares the rendered text of each with the per-row path. */
async function check(ctx: ExampleDatabase, dialect: Dialect, cases: ColumnCases, ordinary: boolean, reader: Queryable = ctx.db): Promise<Mismatch[]> {
  const values = ordinary ? cases.ordinary : cases.any;
  const { db } = ctx;
  await db.execute('DELETE FROM products');
  const now = new Date('2024-01-01T00:00:00.000Z');
  for (let start = 0; start < values.length; start += 100) {
    const chunk = values.slice(start, start + 100);
    const params: SqlValue[] = [];
    const rows = chunk.map((value, i) => {
      params.push(`doc${start + i}`, now, now);
      if (value.sql.includes('?')) params.push(value.param ?? null);
      return `(${start + i + 1}, ?, ?, ?, ${value.sql})`;
    });
    await db.execute(`INSERT INTO products (id, document_id, created_at, updated_at, ${cases.column}) VALUES ${rows.join(', ')}`, params);
  }
  const column = `"products"."${cases.column}"`;
  const raw = cases.type === 'biginteger' ? dialect.selectBigInteger(column) : column;
  const text = dialect.json.text!;
  const serialize = text.values[SCALAR_TYPES[cases.type].serialize];
  // The value inside an object as the reads write one (`{"v":...}`), then taken out of it.
  const object = text.object([['v', fragment(serialize(column))]], true).sql;
  // With a parameter, as the engine's reads: the statement is rendered (`?` numbered on PostgreSQL).
  const read = (await reader.query<{ id: number; raw: unknown; rendered: string }>(`SELECT id, ${raw} AS raw, ${object} AS rendered FROM products WHERE id >= ? ORDER BY id`, [1])).map((row) => ({
    ...row,
    rendered: row.rendered.slice('{"v":'.length, -1),
  }));
  expect(read).toHaveLength(values.length);
  const decode = decoder(dialect, cases.type) ?? ((value: unknown) => value);
  const mismatches: Mismatch[] = [];
  for (const row of read) {
    let expected: string;
    try {
      expected = JSON.stringify(decode(row.raw)) ?? 'undefined';
    } catch (error) {
      expected = `throws ${String(error)}`;
    }
    const ok = ordinary ? row.rendered === expected : row.rendered === expected || row.rendered === RENDER_FALLBACK;
    if (!ok) mismatches.push({ column: cases.column, stored: values[row.id - 1]?.param ?? values[row.id - 1]?.sql, expected, rendered: row.rendered });
  }
  return mismatches;
}

const databases = [
  { client: 'sqlite', dialect: sqliteDialect, cases: sqliteCases },
  { client: 'postgres', dialect: postgresDialect, cases: postgresCases },
] as const;

describe.each(databases)('$client', ({ client, dialect, cases }) => {
  let ctx: ExampleDatabase;
  let all: ColumnCases[];
  beforeAll(async () => {
    ctx = await openExampleDatabase(client);
    all = cases();
  });
  afterAll(() => ctx.close());

  it('renders every stored value as the per-row path serializes it, or the fallback', async () => {
    const mismatches: Mismatch[] = [];
    for (const column of all) mismatches.push(...(await check(ctx, dialect, column, false)));
    expect(mismatches.slice(0, 10)).toEqual([]);
  });

  it('renders every value the API writes without falling back', async () => {
    const mismatches: Mismatch[] = [];
    for (const column of all) mismatches.push(...(await check(ctx, dialect, column, true)));
    expect(mismatches.slice(0, 10)).toEqual([]);
  });

  if (client === 'postgres') {
    it.each([
      ['Europe/Amsterdam', 'ISO, DMY', '1'],
      ['America/St_Johns', 'ISO, MDY', '1'],
      ['Asia/Kolkata', 'SQL, DMY', '1'],
      ['UTC', 'German', '1'],
      ['UTC', 'ISO, MDY', '0'],
      ['UTC', 'ISO, MDY', '-15'],
    ])('follows what the driver reads in a session with TimeZone %s, DateStyle %s, extra_float_digits %s', async (zone, style, floatDigits) => {
      const affected = all.filter((column) => ['date', 'datetime', 'time', 'decimal', 'float'].includes(column.type));
      const mismatches = await ctx.db.withConnection(async (connection) => {
        await connection.execute(`SET TimeZone = '${zone}'`);
        await connection.execute(`SET DateStyle = '${style}'`);
        await connection.execute(`SET extra_float_digits = ${floatDigits}`);
        try {
          const found: Mismatch[] = [];
          for (const column of affected) found.push(...(await check(ctx, dialect, column, false, connection)));
          return found;
        } finally {
          await connection.execute('RESET TimeZone');
          await connection.execute('RESET DateStyle');
          await connection.execute('RESET extra_float_digits');
        }
      });
      expect(mismatches.slice(0, 10)).toEqual([]);
    });
  }
});

it('writes no `?` in SQL text, which statements reserve for parameters', () => {
  for (const dialect of [sqliteDialect, postgresDialect]) {
    for (const [serialization, render] of Object.entries(dialect.json.text!.values)) expect({ serialization, sql: render('"t"."c"') }).not.toMatchObject({ sql: expect.stringContaining('?') });
  }
});
