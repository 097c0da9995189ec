/**
 * Rendered reads (engine/read.ts `rendered`: the response's JSON written by the database) against
 * the rows path they stand in for, on every database: two servers of one generated project on one
 * database, one with `CAPI_RENDERED_READS=0`, must answer every REST read with the same status,
 * headers and body, byte for byte; and values only JavaScript prints right (a double with 17
 * significant digits, one JavaScript writes in exponent form) or that the database's JSON
 * functions refuse make the rendered read fall back to rows, still byte-equal, and from then on
 * that query goes to rows at once.
 */
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareProject, seed, startReferenceServer, type HarnessOptions } from '../conformance/harness.ts';
import type { RunningServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';
import { connect } from '../support/sql.ts';
import type { SeedMap } from './support.ts';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

async function ask(base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${base}${path}`, { headers: { 'x-request-id': 'rendered-test', ...headers } });
  // The statement count differs by design (a fallback reads twice); everything else must not.
  const kept = [...res.headers.entries()].filter(([name]) => name !== 'date' && name !== 'x-query-count');
  return { status: res.status, headers: Object.fromEntries(kept), body: await res.text() };
}

function paths(seedMap: SeedMap): string[] {
  const of = (uid: string) => Object.values(seedMap.documents).find((document) => document.uid === uid)?.documentId ?? 'missing';
  const article = of('api::article.article');
  const page = of('api::page.page');
  return [
    '/api/tags',
    '/api/tags?pagination[pageSize]=2&pagination[page]=2',
    '/api/tags?pagination[start]=1&pagination[limit]=2',
    '/api/tags?pagination[withCount]=false',
    '/api/tags?sort=name:desc&fields[0]=name',
    // Sorted through relations: the page carries correlated sort values, which order the array again.
    '/api/articles?sort[0]=author.name:desc&sort[1]=title:asc&fields[0]=title',
    '/api/articles?sort=category.name&pagination[pageSize]=2&pagination[page]=2&populate[category]=true',
    '/api/tags?pagination[page]=50',
    '/api/tags?filters[name][$contains]=tag&filters[articles][title][$null]=false',
    '/api/articles?populate=*',
    '/api/articles?populate[author][populate][0]=avatar&populate[tags]=true&populate[seo][populate]=*&populate[blocks][on][shared.slider][populate]=*&populate[blocks][on][shared.quote]=true&populate[category][populate][articles]=true',
    '/api/articles?populate[tags][sort]=name:desc&populate[tags][fields][0]=name&populate[tags][filters][name][$ne]=tag-02',
    '/api/articles?populate[tags][count]=true&populate[blocks][on][shared.article-card][populate][article][populate][author]=true',
    '/api/articles?status=draft&populate=*',
    '/api/articles?_q=hello&populate[category]=true',
    '/api/products?populate=*',
    '/api/pages?locale=fr&populate[localizations]=true',
    '/api/pages?locale=*&populate[localizations][count]=true',
    '/api/upload/files',
    `/api/articles/${article}?populate=*`,
    `/api/articles/${article}?status=draft&fields[0]=title`,
    `/api/pages/${page}?locale=fr&populate=*`,
    '/api/articles/no-such-document',
    '/api/global?populate=*',
    '/api/about?populate[blocks]=true',
  ];
}

describe.each(clients)('rendered reads against rows on %s', (database) => {
  let pg: TestDatabase | undefined;
  let rendered: RunningServer;
  let rows: RunningServer;
  let seedMap: SeedMap;
  let databaseUrl: string;

  beforeAll(async () => {
    pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_rendered');
    const options: HarnessOptions = { database, workDir: join(repoRoot, 'tmp', `rendered-${database}-${process.pid}`), ...(pg === undefined ? {} : { databaseUrl: pg.url }) };
    databaseUrl = pg?.url ?? `file:${join(options.workDir, 'conformance.db')}`;
    const project = await prepareProject(options);
    rendered = await startReferenceServer(project, options, { CAPI_QUERY_COUNT: '1' });
    seedMap = JSON.parse(readFileSync(await seed(rendered, options.workDir), 'utf8')) as SeedMap;
    rows = await startReferenceServer(project, options, { CAPI_QUERY_COUNT: '1', CAPI_RENDERED_READS: '0' });
  }, 240_000);
  afterAll(async () => {
    await rendered?.stop();
    await rows?.stop();
    await pg?.drop();
  });

  it('answers every REST read with the same status, headers and body, twice', async () => {
    const statuses: number[] = [];
    for (const pass of [1, 2]) {
      for (const path of paths(seedMap)) {
        const answer = await ask(rendered.url, path);
        expect(answer, `pass ${pass}: ${path}`).toEqual(await ask(rows.url, path));
        statuses.push(answer.status);
      }
    }
    // Every probe but the missing document is a read that answers.
    expect(statuses.filter((status) => status !== 200)).toEqual([404, 404]);
    // Strapi 4's shape is built in JavaScript: the same on both.
    expect(await ask(rendered.url, '/api/articles?populate=*', { 'strapi-response-format': 'v4' })).toEqual(await ask(rows.url, '/api/articles?populate=*', { 'strapi-response-format': 'v4' }));
  });

  it('reads in one statement, the total included', async () => {
    if (database === 'mysql') return; // MariaDB writes no JSON text: its reads are the rows path's.
    const count = async (path: string) => Number((await fetch(`${rendered.url}${path}`)).headers.get('x-query-count'));
    expect(await count('/api/tags')).toBe(1);
    expect(await count('/api/tags?pagination[withCount]=false')).toBe(1);
    // PostgreSQL renders only reads without populate (JsonTextSupport.populated): rows, the total among them.
    expect(await count('/api/articles?populate[author][populate][0]=avatar&populate[tags]=true&populate[blocks]=true')).toBe(1);
    // A to-many relation below a relation too (rest-populate-deep's category.articles).
    expect(await count('/api/articles?populate[author][populate][0]=avatar&populate[category][populate][articles]=true')).toBe(1);
    // A rendered page is one aggregated row, so a page past the end carries its total too.
    expect(await count('/api/tags?pagination[page]=50')).toBe(1);
    // Read in rows (PostgreSQL renders no populated read), a page past the end has no row to carry it: counted apart.
    expect(await count('/api/articles?populate[tags]=true&pagination[page]=50')).toBe(database === 'sqlite' ? 1 : 2);
    expect(await count(`/api/articles/${Object.values(seedMap.documents).find((d) => d.uid === 'api::article.article')?.documentId}?populate=*`)).toBe(1);
  });

  it('falls back to rows for values only JavaScript prints right, then reads rows at once', async () => {
    const sql = await connect(database, databaseUrl);
    try {
      // 0.1 + 0.2 needs 17 digits; 1e-7 is written 1e-7 by JavaScript, differently by the databases.
      await sql.run('UPDATE products SET weight = 0.30000000000000004, price = 0.0000001');
    } finally {
      await sql.close();
    }
    const path = '/api/products';
    const first = await fetch(`${rendered.url}${path}`);
    const body = await first.text();
    expect(body).toContain('"weight":0.30000000000000004');
    expect(body).toBe((await ask(rows.url, path)).body);
    // The rendered read, then the rows path's: one statement each, the total included.
    if (database !== 'mysql') expect(Number(first.headers.get('x-query-count'))).toBe(2);
    const again = await fetch(`${rendered.url}${path}`);
    expect(await again.text()).toBe(body);
    expect(Number(again.headers.get('x-query-count'))).toBe(1);
  });

  it('reads rows when a stored value fails the JSON functions of the database (SQLite: text that is not JSON in a JSON column)', async () => {
    if (database !== 'sqlite') return; // jsonb and MariaDB's JSON columns hold only JSON.
    const sql = await connect(database, databaseUrl);
    try {
      await sql.run(`UPDATE products SET specs = '{"not": json'`);
    } finally {
      await sql.close();
    }
    const path = '/api/products?fields[0]=name&fields[1]=specs';
    const answer = await ask(rendered.url, path);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('"specs":"{\\"not\\": json"');
    expect(answer).toEqual(await ask(rows.url, path));
  });
});
