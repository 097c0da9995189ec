/**
 * HTTP caching of config/cache.json through a generated server (SQLite): strong ETags and 304 on
 * REST reads (collection, single, populated) and GraphQL GETs, on the direct path and through
 * Express; Cache-Control made private for callers with credentials; surrogate keys naming the
 * populated documents; and a real Varnish (varnishd with the xkey vmod of varnish-modules, the
 * VCL of test/fixtures/varnish/capi.vcl) in front, purged through the webhook outbox on every
 * write, REST or GraphQL, to a document a cached answer contains.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareProject, restrictPermissions, startReferenceServer, type HarnessOptions } from '../conformance/harness.ts';
import { capi, freePort, type RunningServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';
import { connect, type Sql } from '../support/sql.ts';

const SALT = 'test-salt-that-is-long-enough-to-be-a-secret';
const ARTICLES = 'public, max-age=60, s-maxage=600';

/** Waits until `condition` holds (purges are sent after commit); fails after a generous bound. */
async function until(condition: () => Promise<boolean>, what: string, tries = 200): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

async function get(base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${base}${path}`, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function send(base: string, method: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const sha1 = (text: string): string => `"${createHash('sha1').update(text).digest('base64url')}"`;

/** varnishd in the foreground on `port`, with the test VCL pointing at `backendPort`. */
async function startVarnish(dir: string, port: number, backendPort: number): Promise<{ url: string; process: ChildProcess; output: () => string }> {
  const vcl = join(dir, 'capi.vcl');
  writeFileSync(vcl, readFileSync(join(repoRoot, 'test', 'fixtures', 'varnish', 'capi.vcl'), 'utf8').replace('${BACKEND_PORT}', String(backendPort)));
  // -j none: as root (CI), varnishd would otherwise want its own users (varnish, vcache).
  const child = spawn('varnishd', ['-F', '-a', `127.0.0.1:${port}`, '-f', vcl, '-n', join(dir, 'work'), '-s', 'malloc,32m', '-j', 'none', '-p', 'default_ttl=0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const url = `http://127.0.0.1:${port}`;
  await until(async () => {
    if (child.exitCode !== null) throw new Error(`varnishd exited:\n${output}`);
    return fetch(`${url}/_health`).then(
      (res) => res.status === 200,
      () => false,
    );
  }, 'varnishd to answer');
  return { url, process: child, output: () => output };
}

describe.each(clients)('HTTP caching (config/cache.json) on %s', (database) => {
  let pg: TestDatabase | undefined;
  let sql: Sql;
  let options: HarnessOptions;
  let project: string;
  let scratch: string;
  let direct: RunningServer;
  let express: RunningServer;
  let varnish: Awaited<ReturnType<typeof startVarnish>>;
  let varnishPort: number;
  let token: string;
  const ids = { author: '', category: '', article: '', other: '' };

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'capi-cache-'));
    pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_cache');
    options = { database, workDir: join(repoRoot, 'tmp', `cache-${database}-${process.pid}`), ...(pg === undefined ? {} : { databaseUrl: pg.url }) };
    const databaseUrl = pg?.url ?? `file:${join(options.workDir, 'conformance.db')}`;
    project = await prepareProject(options);
    // Anonymous callers may not list tags; the token below may not read articles.
    restrictPermissions(project, ['api::tag.tag.find']);
    varnishPort = await freePort();
    const cache = {
      etag: true,
      cacheControl: { 'api::article.article': ARTICLES, 'api::tag.tag': 'public, s-maxage=600', 'api::author.author.findOne': 'public, s-maxage=600', graphql: 'public, s-maxage=600' },
      surrogateKeys: { headers: ['Surrogate-Key', 'Cache-Tag'] },
      purge: { url: `http://127.0.0.1:${varnishPort}/`, method: 'PURGE', headers: { 'xkey-purge': '{keys}' } },
    };
    writeFileSync(join(project, 'config', 'cache.json'), `${JSON.stringify(cache, null, 2)}\n`);
    // Purges refused before Varnish starts are retried within seconds, and never given up on within the test.
    const env = { API_TOKEN_SALT: SALT, CAPI_WEBHOOK_POLL_MS: '100', CAPI_WEBHOOK_BACKOFF_MS: '100', CAPI_WEBHOOK_MAX_ATTEMPTS: '50' };
    direct = await startReferenceServer(project, options, env);
    express = await startReferenceServer(project, options, { ...env, CAPI_DIRECT_PATH: '0' });
    const created = await capi(['token', 'create', '--name', 'tags-only', '--type', 'custom', '--permission', 'api::tag.tag.find', '--project', project], repoRoot, {
      DATABASE_URL: databaseUrl,
      API_TOKEN_SALT: SALT,
    });
    expect(created.code, created.stderr).toBe(0);
    token = created.stdout.trim();

    const create = async (path: string, data: unknown): Promise<string> => {
      const answer = await send(direct.url, 'POST', path, { data });
      expect(answer.status, answer.text).toBe(201);
      return (JSON.parse(answer.text) as { data: { documentId: string } }).data.documentId;
    };
    ids.author = await create('/api/authors', { name: 'Ada' });
    ids.category = await create('/api/categories', { name: 'News', slug: 'news' });
    ids.article = await create('/api/articles?status=published', { title: 'Cached', author: ids.author, category: ids.category });
    ids.other = await create('/api/articles?status=published', { title: 'Other' });
    varnish = await startVarnish(scratch, varnishPort, Number(new URL(direct.url).port));
    sql = await connect(database, databaseUrl);
    // The purges refused while Varnish was not yet listening are sent again now; once they are, no
    // late purge evicts what the tests cache.
    await purgesSent(600);
  }, 240_000);

  /** Waits until every purge queued so far has been sent (purges go out after commit, asynchronously). */
  const purgesSent = async (tries?: number): Promise<void> =>
    until(async () => (await sql.all(`SELECT id FROM capi_webhook_deliveries WHERE webhook = 'capi:cache-purge' AND delivered_at IS NULL`)).length === 0, 'the queued purges to be sent', tries);

  afterAll(async () => {
    varnish?.process.kill('SIGTERM');
    await sql?.close();
    await direct?.stop();
    await express?.stop();
    await pg?.drop();
    if (varnish !== undefined && varnish.process.exitCode === null) await new Promise((resolve) => varnish.process.once('exit', resolve));
    rmSync(scratch, { recursive: true, force: true });
  });

  const reads = (): { name: string; path: string; headers: Record<string, string> }[] => [
    { name: 'REST collection', path: '/api/articles?sort=title', headers: {} },
    { name: 'REST single', path: `/api/articles/${ids.article}`, headers: {} },
    { name: 'REST populated', path: `/api/articles/${ids.article}?populate[author]=true&populate[category]=true`, headers: {} },
    { name: 'REST populated collection', path: '/api/articles?populate=*', headers: {} },
    { name: 'GraphQL GET', path: `/graphql?query=${encodeURIComponent('{ articles(sort: "title") { documentId title author { name } } }')}`, headers: { 'apollo-require-preflight': 'true' } },
  ];

  it('sends a strong ETag of the bytes sent, and 304 for If-None-Match, on REST and GraphQL GET, on the direct path and through Express', async () => {
    for (const server of [direct, express]) {
      for (const read of reads()) {
        const first = await get(server.url, read.path, read.headers);
        expect(first.status, `${read.name}: ${first.text}`).toBe(200);
        const etag = first.headers.get('etag');
        expect(etag, read.name).toBe(sha1(first.text));
        const again = await get(server.url, read.path, { ...read.headers, 'if-none-match': etag! });
        expect(again.status, read.name).toBe(304);
        expect(again.text, read.name).toBe('');
        expect(again.headers.get('etag'), read.name).toBe(etag);
        expect((await get(server.url, read.path, { ...read.headers, 'if-none-match': `W/${etag!}, "other"` })).status, read.name).toBe(304);
        const stale = await get(server.url, read.path, { ...read.headers, 'if-none-match': '"stale"' });
        expect(stale.status, read.name).toBe(200);
        expect(stale.text, read.name).toBe(first.text);
      }
    }
    // Errors carry no ETag and are never 304.
    const missing = await get(direct.url, '/api/articles/nope', { 'if-none-match': '*' });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('etag')).toBeNull();
  });

  it('makes the configured Cache-Control private for callers with credentials, and varies on Authorization', async () => {
    const anonymous = await get(direct.url, '/api/tags');
    expect(anonymous.status).toBe(403);
    expect(anonymous.headers.get('cache-control')).toBeNull();
    const withToken = await get(direct.url, '/api/tags', { authorization: `Bearer ${token}` });
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get('cache-control')).toBe('private');
    expect(withToken.headers.get('vary')).toBe('Authorization, Strapi-Response-Format');
    const article = await get(direct.url, `/api/articles/${ids.article}`);
    expect(article.headers.get('cache-control')).toBe(ARTICLES);
    const signedIn = await get(direct.url, `/api/articles/${ids.article}`, { authorization: 'Bearer not-a-token' });
    expect(signedIn.status).toBe(401);
    expect(signedIn.headers.get('cache-control')).toBeNull();
    // A type without a rule gets no Cache-Control, but still its ETag.
    const category = await get(direct.url, `/api/categories/${ids.category}`);
    expect(category.headers.get('cache-control')).toBeNull();
    expect(category.headers.get('etag')).toBe(sha1(category.text));
  });

  it('names the types and documents an answer contains, populated ones included, in Surrogate-Key and Cache-Tag', async () => {
    const populated = await get(direct.url, `/api/articles/${ids.article}?populate[author]=true&populate[category]=true`);
    const keys = populated.headers.get('surrogate-key')!.split(' ');
    expect(keys.sort()).toEqual(
      [`api::article.article:${ids.article}`, 'api::author.author', `api::author.author:${ids.author}`, 'api::category.category', `api::category.category:${ids.category}`].sort(),
    );
    expect(populated.headers.get('cache-tag')).toBe(populated.headers.get('surrogate-key')!.replaceAll(' ', ','));
    // A single answer is not tagged with its type's list key: writes to other articles leave it.
    const single = await get(direct.url, `/api/articles/${ids.article}`);
    expect(single.headers.get('surrogate-key')).toBe(`api::article.article:${ids.article}`);
    const list = await get(direct.url, '/api/articles?populate[author]=true');
    expect(list.headers.get('surrogate-key')!.split(' ')).toEqual(
      expect.arrayContaining(['api::article.article', `api::article.article:${ids.article}`, `api::article.article:${ids.other}`, 'api::author.author', `api::author.author:${ids.author}`]),
    );
    const graphql = await get(direct.url, `/graphql?query=${encodeURIComponent('{ articles { title author { name } } }')}`, { 'apollo-require-preflight': 'true' });
    expect(graphql.headers.get('surrogate-key')!.split(' ').sort()).toEqual(['api::article.article', 'api::author.author']);
    expect(graphql.headers.get('vary')).toBe('Authorization, Accept');
    expect(graphql.headers.get('cache-control')).toBe('public, s-maxage=600');
  });

  it('serves a populated answer from Varnish until a write to any document in it, REST or GraphQL, purges it', async () => {
    const path = `/api/articles/${ids.article}?populate[author]=true&populate[category]=true`;
    const miss = await get(varnish.url, path);
    expect(miss.status, varnish.output()).toBe(200);
    const hit = await get(varnish.url, path);
    expect(hit.headers.get('x-cache')).toBe('HIT');
    expect(hit.text).toBe(miss.text);
    // Another article's write leaves it cached.
    expect((await send(direct.url, 'PUT', `/api/articles/${ids.other}`, { data: { title: 'Other, edited' } })).status).toBe(200);
    const fresh = (answer: Answer, text: string): boolean => answer.headers.get('x-cache') === 'MISS' && answer.text.includes(text);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await get(varnish.url, path)).headers.get('x-cache')).toBe('HIT');

    // The populated author, written through REST.
    expect((await send(direct.url, 'PUT', `/api/authors/${ids.author}`, { data: { name: 'Ada Lovelace' } })).status).toBe(200);
    await until(async () => fresh(await get(varnish.url, path), '"Ada Lovelace"'), 'the author write to purge the article');
    expect((await get(varnish.url, path)).headers.get('x-cache')).toBe('HIT');

    // The populated category, written through a GraphQL mutation.
    const mutation = await send(direct.url, 'POST', '/graphql', { query: `mutation { updateCategory(documentId: "${ids.category}", data: { name: "World" }) { name } }` });
    expect(mutation.text).toContain('"World"');
    await until(async () => fresh(await get(varnish.url, path), '"World"'), 'the GraphQL category write to purge the article');

    // The root article itself.
    expect((await send(direct.url, 'PUT', `/api/articles/${ids.article}?status=published`, { data: { title: 'Cached, edited' } })).status).toBe(200);
    await until(async () => fresh(await get(varnish.url, path), '"Cached, edited"'), 'the article write to purge it');

    // A relation change seen from the other side: the author's populated answer lists the article once it links to the author.
    const authorPath = `/api/authors/${ids.author}?populate[articles]=true`;
    const before = await get(varnish.url, authorPath);
    expect(before.text).not.toContain(ids.other);
    expect((await get(varnish.url, authorPath)).headers.get('x-cache')).toBe('HIT');
    expect((await send(direct.url, 'PUT', `/api/articles/${ids.other}?status=published`, { data: { author: ids.author } })).status).toBe(200);
    await until(async () => fresh(await get(varnish.url, authorPath), ids.other), 'the new link to purge the author');

    // A GraphQL GET is purged the same way.
    const graphql = `/graphql?query=${encodeURIComponent('{ articles(sort: "title") { title author { name } } }')}`;
    const preflight = { 'apollo-require-preflight': 'true' };
    expect((await get(varnish.url, graphql, preflight)).status).toBe(200);
    expect((await get(varnish.url, graphql, preflight)).headers.get('x-cache')).toBe('HIT');
    expect((await send(direct.url, 'PUT', `/api/authors/${ids.author}`, { data: { name: 'Countess' } })).status).toBe(200);
    await until(async () => fresh(await get(varnish.url, graphql, preflight), '"Countess"'), 'the author write to purge the GraphQL answer');

    // The author's create, written before Varnish listened: its purge was refused, kept, and sent again once it did.
    const authorCreated = JSON.stringify({ keys: ['api::author.author', `api::author.author:${ids.author}`] });
    const purgeOf = async () =>
      (await sql.all(`SELECT payload, attempts, delivered_at FROM capi_webhook_deliveries WHERE webhook = 'capi:cache-purge' AND event = 'entry.create'`)).find(
        (row) => String(row.payload) === authorCreated,
      );
    await until(async () => (await purgeOf())?.delivered_at != null, 'the purge refused while Varnish was down to be sent again', 600);
    expect(Number((await purgeOf())!.attempts)).toBeGreaterThan(1);
  });

  it('purges the answers that populate a file when the file changes', async () => {
    const form = new FormData();
    form.append('files', new Blob(['plain text'], { type: 'text/plain' }), 'cover.txt');
    const uploaded = await fetch(`${direct.url}/api/upload`, { method: 'POST', body: form });
    expect(uploaded.status).toBe(201);
    const [file] = (await uploaded.json()) as { id: number; documentId: string }[];
    expect((await send(direct.url, 'PUT', `/api/articles/${ids.article}?status=published`, { data: { cover: file!.id } })).status).toBe(200);
    await purgesSent();
    const path = `/api/articles/${ids.article}?populate[cover]=true`;
    await until(async () => (await get(varnish.url, path)).text.includes('cover.txt'), 'the article with its cover');
    const cached = await get(varnish.url, path);
    expect(cached.headers.get('x-cache')).toBe('HIT');
    expect(cached.headers.get('surrogate-key')).toContain(`plugin::upload.file:${file!.documentId}`);
    const info = new FormData();
    info.append('fileInfo', JSON.stringify({ alternativeText: 'A cover' }));
    expect((await fetch(`${direct.url}/api/upload?id=${file!.id}`, { method: 'POST', body: info })).status).toBe(200);
    await until(async () => {
      const answer = await get(varnish.url, path);
      return answer.headers.get('x-cache') === 'MISS' && answer.text.includes('"A cover"');
    }, 'the file change to purge the article');
  });

  it('never serves a cached answer to a caller whose permissions differ, either way', async () => {
    // Anonymous first: cached publicly; the token, which may not read articles, still gets its 403.
    const path = `/api/articles?populate[author]=true&filters[title][$contains]=Cached`;
    expect((await get(varnish.url, path)).status).toBe(200);
    expect((await get(varnish.url, path)).headers.get('x-cache')).toBe('HIT');
    const withToken = await get(varnish.url, path, { authorization: `Bearer ${token}` });
    expect(withToken.status).toBe(403);
    // The token first: its answer is private, so the anonymous caller, who may not list tags, gets its 403.
    const tokenTags = await get(varnish.url, '/api/tags', { authorization: `Bearer ${token}` });
    expect(tokenTags.status).toBe(200);
    expect((await get(varnish.url, '/api/tags', { authorization: `Bearer ${token}` })).headers.get('x-cache')).toBe('MISS');
    expect((await get(varnish.url, '/api/tags')).status).toBe(403);
  });
});
