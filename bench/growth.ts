/**
 * The growth table: what a page of articles costs as the table grows to 1k, 10k and 100k
 * documents (each a draft and a published row, three tags and a category per row, as Strapi
 * stores them). Articles are added straight into the database of a running, seeded server
 * (copies of a seeded article's rows, so every column is encoded as the engine writes it), and
 * each request shape is loaded for a few seconds at every size.
 */
import autocannon from 'autocannon';
import BetterSqlite3 from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { DatabaseKind } from '../templates/contract/database.ts';
import { sessionSetup } from '../templates/runtime/database-mysql.ts';

export interface GrowthDatabase {
  readonly client: DatabaseKind;
  /** SQLite file, or PostgreSQL / MySQL URL of the server's database. */
  readonly location: string;
}

/** The SQL that differs per database when rows are added: a number series and casts. */
interface GrowthSql {
  /** `insert` of `select`, where `select` reads a table `seq(i)` of from..to-1 (a `WITH`). */
  readonly insertFromSeries: (from: number, to: number, insert: string, select: string) => string;
  /** `prefix` followed by the number padded to 18 digits. */
  readonly padded: (prefix: string, number: string) => string;
  readonly text: (expr: string) => string;
  readonly integer: (expr: string) => string;
  /** Refreshes the planner's statistics after the insert. */
  readonly analyze: readonly string[];
}

/** A recursive series: SQLite and MySQL have no generate_series. */
const recursiveSeries = (from: number, to: number): string => `WITH RECURSIVE seq(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM seq WHERE i < ${to - 1})`;

const TABLES = ['articles', 'articles_tags_lnk', 'articles_category_lnk'];

const GROWTH_SQL: Readonly<Record<DatabaseKind, GrowthSql>> = {
  sqlite: {
    insertFromSeries: (from, to, insert, select) => `${recursiveSeries(from, to)} ${insert} ${select}`,
    padded: (prefix, number) => `printf('${prefix}%018d', ${number})`,
    text: (expr) => expr,
    integer: (expr) => `CAST(${expr} AS INTEGER)`,
    analyze: [],
  },
  postgres: {
    insertFromSeries: (from, to, insert, select) => `WITH seq(i) AS (SELECT generate_series(${from}, ${to - 1})) ${insert} ${select}`,
    padded: (prefix, number) => `'${prefix}' || lpad(${number}::text, 18, '0')`,
    text: (expr) => `${expr}::text`,
    integer: (expr) => `CAST(${expr} AS INTEGER)`,
    analyze: ['ANALYZE'],
  },
  // The connection runs capi's session (ANSI quotes, || concatenates, binary collation).
  mysql: {
    // MySQL takes the WITH after INSERT, not before it.
    insertFromSeries: (from, to, insert, select) => `${insert} ${recursiveSeries(from, to)} ${select}`,
    padded: (prefix, number) => `'${prefix}' || LPAD(${number}, 18, '0')`,
    text: (expr) => `CAST(${expr} AS CHAR)`,
    integer: (expr) => `CAST(${expr} AS SIGNED)`,
    analyze: [`ANALYZE TABLE ${TABLES.join(', ')}`],
  },
};

interface Sql {
  query(sql: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export async function connect(db: GrowthDatabase): Promise<Sql> {
  if (db.client === 'sqlite') {
    const connection = new BetterSqlite3(db.location);
    connection.pragma('busy_timeout = 10000');
    return {
      query: async (sql) => {
        if (/^(BEGIN|COMMIT|ROLLBACK)$/.test(sql)) return (connection.exec(sql), []);
        const statement = connection.prepare(sql);
        return statement.reader ? (statement.all() as Record<string, unknown>[]) : (statement.run(), []);
      },
      close: async () => void connection.close(),
    };
  }
  if (db.client === 'mysql') {
    const connection = await mysql.createConnection({ uri: db.location, multipleStatements: true });
    await connection.query(sessionSetup);
    // A recursive series of 100,000 rows: MySQL 8 and MariaDB stop at 1,000 iterations by
    // default, each under its own variable (the other one's is an error, ignored).
    for (const limit of ['cte_max_recursion_depth', 'max_recursive_iterations']) await connection.query(`SET SESSION ${limit} = 1000000`).catch(() => undefined);
    return {
      query: async (sql) => {
        const [rows] = await connection.query(sql);
        return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
      },
      close: () => connection.end(),
    };
  }
  const client = new pg.Client({ connectionString: db.location });
  await client.connect();
  return {
    query: async (sql) => (await client.query(sql)).rows as Record<string, unknown>[],
    close: () => client.end(),
  };
}

const PREFIX = 'growth';
const RARE_TAG = 'tag-01';
const RARE_CATEGORY = 'news';
const COMMON_TAG = 'tag-02';
const COMMON_CATEGORY = 'tech';

/** Adds articles `from`..`to`-1 (document numbers), each a draft and a published row with links. */
export async function addArticles(sql: Sql, client: GrowthDatabase['client'], from: number, to: number): Promise<void> {
  if (to <= from) return;
  const dialect = GROWTH_SQL[client];
  const documentId = dialect.padded(PREFIX, 'seq.i');
  const text = dialect.text;
  await sql.query('BEGIN');
  try {
    // Both versions of the seeded article "hello-world" serve as templates for every column.
    await sql.query(
      dialect.insertFromSeries(
        from,
        to,
        'INSERT INTO articles (document_id, title, description, slug, reading_time, featured, created_at, updated_at, published_at)',
        `SELECT ${documentId}, 'Growth article ' || ${text('seq.i')}, t.description, 'growth-' || ${text('seq.i')}, seq.i % 17, t.featured, t.created_at, t.updated_at, t.published_at
         FROM seq CROSS JOIN (SELECT * FROM articles WHERE slug = 'hello-world') t`,
      ),
    );
    // The added articles never use tag-01 or the "news" category, so a filter on those keeps
    // matching the same few seeded articles however large the table grows (a selective filter),
    // while one on another tag or category matches a fixed share of it (an unselective one).
    const tags = (await sql.query(`SELECT DISTINCT document_id FROM tags WHERE name <> '${RARE_TAG}' ORDER BY document_id`)).map((r) => String(r['document_id']));
    const categories = (await sql.query(`SELECT DISTINCT document_id FROM categories WHERE slug NOT IN ('empty', '${RARE_CATEGORY}') ORDER BY document_id`)).map((r) => String(r['document_id']));
    const number = dialect.integer(`substr(a.document_id, ${PREFIX.length + 1})`);
    const pick = (list: readonly string[], offset: string): string => `(CASE (${number} + ${offset}) % ${list.length} ${list.map((id, i) => `WHEN ${i} THEN '${id}'`).join(' ')} END)`;
    const fresh = `a.document_id >= '${PREFIX}${String(from).padStart(18, '0')}' AND a.document_id <= '${PREFIX}${String(to - 1).padStart(18, '0')}'`;
    for (const k of [0, 1, 2]) {
      await sql.query(`INSERT INTO articles_tags_lnk (entity_id, target_document_id, ord, inverse_ord) SELECT a.id, ${pick(tags, String(k * 7))}, ${k + 1}, 0 FROM articles a WHERE ${fresh}`);
    }
    await sql.query(`INSERT INTO articles_category_lnk (entity_id, target_document_id, ord, inverse_ord) SELECT a.id, ${pick(categories, '0')}, 1, 0 FROM articles a WHERE ${fresh}`);
    await sql.query('COMMIT');
  } catch (error) {
    await sql.query('ROLLBACK');
    throw error;
  }
  for (const statement of dialect.analyze) await sql.query(statement);
}

/**
 * A GET on a fresh connection: after a long insert, a pooled keep-alive connection may have been
 * closed by the server's idle timeout just as it is reused.
 */
export function probeOnce(url: string): Promise<Response> {
  return fetch(url, { headers: { connection: 'close' } });
}

export interface GrowthRow {
  readonly size: number;
  readonly shape: string;
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
}

/** The populated first page and the last page of a table, which the ratio row of growthMarkdown compares. */
const FIRST_PAGE = 'populate=* first page';
const LAST_PAGE = 'populate=* last page';
const PAGE_SIZE = 25;

/**
 * Loads the growth shapes (every one, or those named in `only`) at 1k/10k/100k articles; returns
 * one row per (size, shape).
 */
export async function growth(url: string, db: GrowthDatabase, sizes: readonly number[], seconds: number, log: (line: string) => void, only?: readonly string[]): Promise<GrowthRow[]> {
  const sql = await connect(db);
  const rows: GrowthRow[] = [];
  try {
    let have = 0;
    for (const size of sizes) {
      await addArticles(sql, db.client, have, size);
      have = size;
      const shapes: Record<string, string> = {
        list: '/api/articles?pagination[pageSize]=25',
        'list, withCount=false': '/api/articles?pagination[pageSize]=25&pagination[withCount]=false',
        'filter tags.name, few matches': `/api/articles?filters[tags][name][$eq]=${RARE_TAG}&pagination[pageSize]=25`,
        'filter tags.name, ~10% match': `/api/articles?filters[tags][name][$eq]=${COMMON_TAG}&pagination[pageSize]=25`,
        'filter category.slug, few matches': `/api/articles?filters[category][slug][$eq]=${RARE_CATEGORY}&pagination[pageSize]=25`,
        'filter category.slug, ~50% match': `/api/articles?filters[category][slug][$eq]=${COMMON_CATEGORY}&pagination[pageSize]=25`,
        'filter category.slug, ~50%, withCount=false': `/api/articles?filters[category][slug][$eq]=${COMMON_CATEGORY}&pagination[pageSize]=25&pagination[withCount]=false`,
        'sort slug:desc': '/api/articles?sort=slug:desc&pagination[pageSize]=25',
        // Without the total, what the sort itself costs (an index read in order, or a sort of every row).
        'sort slug:desc, withCount=false': '/api/articles?sort=slug:desc&pagination[pageSize]=25&pagination[withCount]=false',
        'sort title:asc (no index)': '/api/articles?sort=title:asc&pagination[pageSize]=25',
        'offset 90%': `/api/articles?pagination[start]=${Math.floor(size * 0.9)}&pagination[limit]=25`,
        // A later page pays for the rows it skips only as an OFFSET: nothing of them is populated.
        [FIRST_PAGE]: `/api/articles?populate=*&pagination[pageSize]=${PAGE_SIZE}`,
        // The added articles' last full page (the table also holds the seed's few).
        [LAST_PAGE]: `/api/articles?populate=*&pagination[pageSize]=${PAGE_SIZE}&pagination[page]=${Math.floor(size / PAGE_SIZE)}`,
      };
      for (const [shape, path] of Object.entries(shapes)) {
        if (only !== undefined && !only.includes(shape)) continue;
        const probe = await probeOnce(`${url}${path}`);
        if (!probe.ok) throw new Error(`${shape}: ${probe.status} ${await probe.text()}`);
        await probe.arrayBuffer();
        const result = await autocannon({ url: `${url}${path}`, connections: 10, duration: seconds });
        const row: GrowthRow = { size, shape, rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx };
        rows.push(row);
        log(`| ${size} | ${shape} | ${row.rps} | ${row.p50} | ${row.p99} | ${row.non2xx} |`);
      }
    }
  } finally {
    await sql.close();
  }
  return rows;
}

/** Rows by shape, one column per size: `| shape | 1k req/s (p99) | 10k ... |`. */
export function growthMarkdown(rows: readonly GrowthRow[]): string {
  const sizes = [...new Set(rows.map((r) => r.size))];
  const shapes = [...new Set(rows.map((r) => r.shape))];
  const label = (size: number): string => (size >= 1000 ? `${size / 1000}k` : String(size));
  const cell = (shape: string, size: number): string => {
    const row = rows.find((r) => r.shape === shape && r.size === size);
    return row === undefined ? '' : `${row.rps} (${row.p99} ms)${row.non2xx > 0 ? ` ${row.non2xx} non-2xx` : ''}`;
  };
  const rps = (shape: string, size: number): number | undefined => rows.find((r) => r.shape === shape && r.size === size)?.rps;
  const ratio = (size: number): string => {
    const first = rps(FIRST_PAGE, size);
    const last = rps(LAST_PAGE, size);
    return first === undefined || last === undefined || first === 0 ? '' : (last / first).toFixed(2);
  };
  const ratioRow = shapes.includes(FIRST_PAGE) && shapes.includes(LAST_PAGE) ? [`| last page / first page (req/s) | ${sizes.map(ratio).join(' | ')} |`] : [];
  return [
    `| shape | ${sizes.map((s) => `${label(s)} articles: req/s (p99)`).join(' | ')} |`,
    `| --- | ${sizes.map(() => '---').join(' | ')} |`,
    ...shapes.map((shape) => `| ${shape} | ${sizes.map((size) => cell(shape, size)).join(' | ')} |`),
    ...ratioRow,
  ].join('\n');
}
