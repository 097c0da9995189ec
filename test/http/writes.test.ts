/**
 * Writes through HTTP against two server processes on one database (SQLite, PostgreSQL and
 * MySQL/MariaDB), on the example model.
 *
 * Forms: the relation, media and component values Strapi takes, in REST and GraphQL, and the
 * required values of new component instances on update (issue 9 item 7).
 *
 * Races: writes racing deletes of what they link to. In every round, several articles connect a tag, take a file
 * as cover, hold a relation to another article inside a dynamic zone entry, products attach a
 * file (in a media field and inside a component), a tag and a category connect articles from
 * their inverse side, and a page (in two locales) takes a category, while the tag, the file, the
 * category and an article linked to are deleted. Every answer must be a
 * success or a 4xx (never a 5xx), and afterwards no link may point at a deleted document or file
 * and no component row may have lost its owner.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { model } from '../support/runtime-model.ts';
import { openDatabase, type Database } from '../../templates/runtime/database.ts';
import { capi, copyExample, scratch, startServer, type RunningServer } from '../support/cli.ts';
import { checkInvariants } from '../support/invariants.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';
import { request, type JsonResponse } from './support.ts';

// More rounds before a release: CAPI_RACE_ROUNDS=100 npx vitest run test/http/writes.test.ts
// (CAPI_RACE_REPORT=1 prints who won the races, and PostgreSQL's deadlock count).
const ROUNDS = Number(process.env.CAPI_RACE_ROUNDS ?? 6);
const ARTICLES = 6;
// A 1x1 PNG, so that image-only media fields take it.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

/** Every action of the example model, for the public role: the race is not about permissions. */
function permissions(): Record<string, string[]> {
  const actions: string[] = [];
  for (const type of Object.values(model.contentTypes)) {
    // users-permissions' types have the plugin's own actions (sign-in.test.ts).
    if (!type.uid.startsWith('api::')) continue;
    const verbs = type.kind === 'singleType' ? ['find', 'update', 'delete'] : ['find', 'findOne', 'create', 'update', 'delete'];
    for (const verb of verbs) actions.push(`${type.uid}.${verb}`);
  }
  actions.push(...['find', 'findOne', 'upload', 'destroy'].map((a) => `plugin::upload.content-api.${a}`));
  return { public: actions, authenticated: actions };
}

// On every database. MariaDB was left out for a while: in one full CI run a draft created on one
// process with relations to tags just created through the other answered 400, and a racing PUT
// 404 where 400 was expected. Both are what a third process answering on one of the two ports
// gives: startServer used to pick a free port, then poll /_health on it, so a server of another
// test that took the port first passed for this one (test/support/cli.ts startServer now learns
// the port from the child itself; the first test below pins that).
// MariaDB's sessions already run READ COMMITTED (database-mysql.ts), as the write engine expects.
describe.each(clients)('writes on %s, two server processes', (client) => {
  const space = scratch(`races-${client}`);
  const project = join(space.dir, 'project');
  let pg: TestDatabase | undefined;
  let url = '';
  const servers: RunningServer[] = [];
  let db: Database;

  beforeAll(async () => {
    if (client !== 'sqlite') {
      pg = await createServerDatabase(client, 'capi_races');
      url = pg.url;
    } else {
      url = `file:${join(space.dir, 'races.db')}`;
    }
    const types = copyExample(join(space.dir, 'content-types'));
    const generated = await capi(['generate', '--content-types', types, '--out', project, '--database', client, '--quiet']);
    if (generated.code !== 0) throw new Error(generated.stderr);
    writeFileSync(join(project, 'config', 'permissions.json'), JSON.stringify(permissions()));
    const plugins = JSON.parse(readFileSync(join(project, 'config', 'plugins.json'), 'utf8')) as Record<string, unknown>;
    plugins.i18n = {
      defaultLocale: 'en',
      locales: [
        { code: 'en', name: 'English (en)' },
        { code: 'fr', name: 'French (fr)' },
      ],
    };
    writeFileSync(join(project, 'config', 'plugins.json'), JSON.stringify(plugins));
    // One after the other: the first applies the migrations.
    for (let i = 0; i < 2; i++) servers.push(await startServer(project, { DATABASE_URL: url, NODE_ENV: 'production', LOG_LEVEL: 'warn' }));
    db = await openDatabase(client === 'sqlite' ? { client: 'sqlite', filename: join(space.dir, 'races.db'), label: 'races.db' } : { client, url, label: 'races', pool: { max: 2 } });
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    for (const server of servers) await server.stop();
    await pg?.drop();
    space.dispose();
  });

  let turn = 0;
  /** Alternates between the two processes. */
  const call = (method: string, path: string, body?: unknown): Promise<JsonResponse> => request(servers[turn++ % 2]!.url, method, path, body);

  async function create(path: string, data: Record<string, unknown>): Promise<string> {
    const res = await call('POST', path, { data });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.documentId as string;
  }

  async function upload(name: string): Promise<number> {
    const form = new FormData();
    form.append('files', new Blob([PNG], { type: 'image/png' }), name);
    const res = await fetch(`${servers[0]!.url}/api/upload`, { method: 'POST', body: form });
    const body = (await res.json()) as { id: number }[];
    expect(res.status).toBe(201);
    return body[0]!.id;
  }

  async function graphql(query: string): Promise<{ data?: any; errors?: { message: string; extensions?: { code?: string } }[] }> {
    const res = await fetch(`${servers[1]!.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    return (await res.json()) as { data?: any; errors?: { message: string; extensions?: { code?: string } }[] };
  }

  it('takes the URL from its own server process: one that cannot listen fails to start, though another process answers on its port', async () => {
    // Another process already answers /_health on the port this server is told to use.
    const other = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}'));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const port = (other.address() as AddressInfo).port;
    try {
      await expect(startServer(project, { DATABASE_URL: url, NODE_ENV: 'production', LOG_LEVEL: 'warn', PORT: String(port) })).rejects.toThrow(/exited with 1[\s\S]*already in use/);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it("takes Strapi's relation, media and component forms through REST and GraphQL", async () => {
    const tags: { documentId: string; id: number }[] = [];
    for (const name of ['form-a', 'form-b', 'form-c', 'form-d']) {
      const res = await call('POST', '/api/tags', { data: { name } });
      tags.push({ documentId: res.body.data.documentId, id: res.body.data.id });
    }
    const names = async (documentId: string): Promise<string[]> =>
      ((await call('GET', `/api/articles/${documentId}?populate=tags&status=draft`)).body.data.tags as { name: string }[]).map((t) => t.name);
    const article = await call('POST', '/api/articles?status=draft', { data: { title: 'forms', tags: [tags[0]!.id, { id: String(tags[1]!.id) }] } });
    expect(article.status).toBe(201);
    const doc = article.body.data.documentId as string;
    expect(await names(doc)).toEqual(['form-a', 'form-b']);
    const positioned = { connect: [{ documentId: tags[2]!.documentId, position: { after: tags[3]!.documentId } }] };
    expect((await call('PUT', `/api/articles/${doc}?status=draft`, { data: { tags: positioned } })).body.error).toMatchObject({ status: 400, name: 'ValidationError' });
    expect((await call('PUT', `/api/articles/${doc}?status=draft`, { data: { tags: { ...positioned, options: { strict: false } } } })).status).toBe(200);
    expect(await names(doc)).toEqual(['form-a', 'form-b', 'form-c']);
    expect((await call('PUT', `/api/articles/${doc}?status=draft`, { data: { tags: { disconnect: [tags[3]!.documentId, { id: tags[0]!.id }] } } })).status).toBe(200);
    expect(await names(doc)).toEqual(['form-b', 'form-c']);
    expect((await call('PUT', `/api/articles/${doc}?status=draft`, { data: { tags: { connect: [999999] } } })).body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: '1 relation(s) of type api::tag.tag associated with this entity do not exist',
      details: { errors: [{ path: [], message: '1 relation(s) of type api::tag.tag associated with this entity do not exist', name: 'ValidationError' }] },
    });

    const files = [await upload('form-1.png'), await upload('form-2.png')];
    const product = await call('POST', '/api/products', { data: { name: 'forms', slug: 'forms', variants: [{ sku: 'A' }], gallery: { connect: [files[0]] } } });
    expect(product.status).toBe(201);
    const productDoc = product.body.data.documentId as string;
    expect((await call('PUT', `/api/products/${productDoc}`, { data: { gallery: { connect: [files[1]], disconnect: [files[0]] } } })).status).toBe(200);
    const read = async (): Promise<any> => (await call('GET', `/api/products/${productDoc}?populate[0]=variants&populate[1]=gallery`)).body.data;
    expect(((await read()).gallery as { id: number }[]).map((f) => f.id)).toEqual([files[1]]);

    // A new instance without its required sku: refused in REST and GraphQL, nothing stored.
    const missing = await call('PUT', `/api/products/${productDoc}`, { data: { variants: [{ color: 'red' }] } });
    expect(missing.body.error).toMatchObject({ status: 400, name: 'ValidationError', message: 'variants[0].sku must be defined.' });
    const viaGraphql = await graphql(`mutation { updateProduct(documentId: "${productDoc}", data: { variants: [{ color: "red" }] }) { documentId } }`);
    expect(viaGraphql.errors?.[0]).toMatchObject({ message: 'variants[0].sku must be defined.', extensions: { code: 'BAD_USER_INPUT' } });
    const variantId = (await read()).variants[0].id as number;
    const patched = await graphql(`mutation { updateProduct(documentId: "${productDoc}", data: { variants: [{ id: "${variantId}", color: "blue" }] }) { variants { id sku color } } }`);
    expect(patched.errors).toBeUndefined();
    expect(patched.data.updateProduct.variants).toEqual([{ id: String(variantId), sku: 'A', color: 'blue' }]);
    const listed = await graphql('query { products { name variants { sku } } }');
    expect(listed.errors).toBeUndefined();

    const other = await call('POST', '/api/products', { data: { name: 'other-forms', slug: 'other-forms', variants: [{ sku: 'O' }] } });
    const foreign = (await call('GET', `/api/products/${other.body.data.documentId}?populate=variants`)).body.data.variants[0].id as number;
    expect((await call('PUT', `/api/products/${productDoc}`, { data: { variants: [{ id: foreign, sku: 'stolen' }] } })).body.error).toEqual({
      status: 400,
      name: 'ApplicationError',
      message: 'Some of the provided components in variants are not related to the entity',
      details: {},
    });
  });

  it('answers every racing request with a success or a 4xx and leaves no link to anything deleted', { timeout: 240_000 }, async () => {
    const statuses = new Map<string, Map<number, number>>();
    const tally = (label: string, status: number): void => {
      const counts = statuses.get(label) ?? new Map<number, number>();
      counts.set(status, (counts.get(status) ?? 0) + 1);
      statuses.set(label, counts);
    };
    const shuffle = fc.sample(fc.infiniteStream(fc.integer({ min: 0, max: 1_000_000 })), { numRuns: 1, seed: 20261123 })[0]![Symbol.iterator]();

    const keptFile = await upload('kept.png');
    for (let round = 0; round < ROUNDS; round++) {
      const tag = await create('/api/tags', { name: `doomed-${round}` });
      const keeper = await create('/api/tags', { name: `keeper-${round}` });
      const articles: string[] = [];
      for (let i = 0; i < ARTICLES; i++) articles.push(await create('/api/articles', { title: `a${round}-${i}` }));
      const linked = await create('/api/articles', { title: `linked-${round}` });
      const products: string[] = [];
      for (let i = 0; i < 2; i++) products.push(await create('/api/products', { name: `p${round}-${i}`, slug: `p${round}-${i}` }));
      const file = await upload(`r${round}.png`);
      // Holds the doomed file from the start; its writes below only touch other files.
      const holder = await create('/api/products', { name: `holder-${round}`, slug: `holder-${round}`, gallery: [file], variants: [{ sku: 'h', image: file }] });
      const category = await create('/api/categories', { name: `doomed-${round}` });
      const otherCategory = await create('/api/categories', { name: `kept-${round}` });
      const page = await create('/api/pages', { title: `page-${round}` });

      const work: { label: string; run: () => Promise<JsonResponse> }[] = [
        ...articles.map((a) => ({ label: 'PUT connect tag', run: () => call('PUT', `/api/articles/${a}`, { data: { tags: { connect: [tag] } } }) })),
        ...articles.slice(0, 3).map((a) => ({ label: 'PUT cover', run: () => call('PUT', `/api/articles/${a}`, { data: { cover: file } }) })),
        ...articles.slice(3).map((a) => ({
          label: 'PUT dz relation',
          run: () => call('PUT', `/api/articles/${a}`, { data: { blocks: [{ __component: 'shared.article-card', title: 'card', article: linked }] } }),
        })),
        ...products.map((p) => ({
          label: 'PUT media',
          run: () => call('PUT', `/api/products/${p}`, { data: { gallery: { connect: [file] }, variants: [{ sku: 's', image: file }] } }),
        })),
        { label: 'PUT media', run: () => call('PUT', `/api/products/${holder}`, { data: { gallery: { connect: [keptFile] } } }) },
        { label: 'PUT media', run: () => call('PUT', `/api/products/${holder}`, { data: { summary: 'touched', variants: [{ sku: 'h2' }] } }) },
        { label: 'PUT inverse', run: () => call('PUT', `/api/tags/${keeper}`, { data: { articles: { connect: [linked, articles[0]] } } }) },
        { label: 'PUT inverse', run: () => call('PUT', `/api/categories/${otherCategory}`, { data: { articles: [articles[1], linked] } }) },
        { label: 'PUT page', run: () => call('PUT', `/api/pages/${page}`, { data: { category } }) },
        { label: 'PUT page', run: () => call('PUT', `/api/pages/${page}?locale=fr`, { data: { title: `fr-${round}`, category } }) },
        { label: 'DELETE category', run: () => call('DELETE', `/api/categories/${category}`) },
        { label: 'DELETE tag', run: () => call('DELETE', `/api/tags/${tag}`) },
        { label: 'DELETE file', run: () => call('DELETE', `/api/upload/files/${file}`) },
        { label: 'DELETE article', run: () => call('DELETE', `/api/articles/${linked}`) },
      ];
      // The requests go out in a different order each round.
      for (let i = work.length - 1; i > 0; i--) {
        const j = shuffle.next().value % (i + 1);
        [work[i], work[j]] = [work[j]!, work[i]!];
      }
      // The deletes start after a pause that differs from round to round, so that in some rounds
      // the writes win the race and in others the deletes do.
      const pause = shuffle.next().value % 60;
      const answers = await Promise.all(
        work.map(async (w) => {
          if (w.label.startsWith('DELETE')) await new Promise((resolve) => setTimeout(resolve, pause));
          return { label: w.label, res: await w.run() };
        }),
      );
      for (const { label, res } of answers) {
        tally(label, res.status);
        if (res.status >= 500) console.error(servers.map((s) => s.output().slice(-4000)).join('\n----\n'));
        expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
        if (label.startsWith('PUT') && res.status !== 200) {
          expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(400);
          expect(res.body.error.message).toMatch(/not found|do not exist/);
        }
        if (label.startsWith('DELETE')) expect([200, 204]).toContain(res.status);
      }
      expect(await checkInvariants(db, model)).toEqual([]);
    }
    // The tag, the file and the linked article are gone, and so is every link to them.
    expect(await checkInvariants(db, model)).toEqual([]);
    const summary = Object.fromEntries([...statuses].map(([label, counts]) => [label, Object.fromEntries(counts)]));
    if (process.env.CAPI_RACE_REPORT)
      console.log(client, JSON.stringify(summary), client === 'postgres' ? JSON.stringify(await db.query('SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()')) : '');
    expect(Object.keys(summary).sort()).toEqual([
      'DELETE article',
      'DELETE category',
      'DELETE file',
      'DELETE tag',
      'PUT connect tag',
      'PUT cover',
      'PUT dz relation',
      'PUT inverse',
      'PUT media',
      'PUT page',
    ]);
  });
});
