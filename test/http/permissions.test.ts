/**
 * The permission matrix through HTTP, on SQLite, PostgreSQL and MySQL: every content-API action is
 * refused with Strapi's 403 envelope unless config/permissions.json grants it to the public role
 * (or the request's API token allows it); and a write that may create articles but relates them
 * to a type the caller may not read is refused, REST and GraphQL, whether the target exists or not.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareProject, startReferenceServer, type HarnessOptions } from '../conformance/harness.ts';
import { capi, type RunningServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';

const SALT = 'permission-matrix-salt';
const PUBLIC = ['api::tag.tag.find', 'api::tag.tag.findOne', 'api::global.global.find', 'plugin::upload.content-api.find', 'api::article.article.create', 'api::article.article.update'];

/** Method, path, action it needs. `:tag` is replaced by a tag's documentId. */
const MATRIX: readonly [string, string, string][] = [
  ['GET', '/api/tags', 'api::tag.tag.find'],
  ['GET', '/api/tags/:tag', 'api::tag.tag.findOne'],
  ['POST', '/api/tags', 'api::tag.tag.create'],
  ['PUT', '/api/tags/:tag', 'api::tag.tag.update'],
  ['DELETE', '/api/tags/:tag', 'api::tag.tag.delete'],
  ['GET', '/api/articles', 'api::article.article.find'],
  ['GET', '/api/articles/abcdefghijklmnopqrstuvwx', 'api::article.article.findOne'],
  ['GET', '/api/global', 'api::global.global.find'],
  ['PUT', '/api/global', 'api::global.global.update'],
  ['DELETE', '/api/global', 'api::global.global.delete'],
  ['GET', '/api/upload/files', 'plugin::upload.content-api.find'],
  ['GET', '/api/upload/files/1', 'plugin::upload.content-api.findOne'],
  ['DELETE', '/api/upload/files/1', 'plugin::upload.content-api.destroy'],
  ['POST', '/api/upload', 'plugin::upload.content-api.upload'],
  ['GET', '/api/i18n/locales', 'plugin::i18n.locales.listLocales'],
];

describe.each(clients)('permissions on %s', (database) => {
  let pg: TestDatabase | undefined;
  let server: RunningServer;
  let tag = '';
  let category = '';
  let full = '';
  let readOnly = '';
  let creator = '';

  beforeAll(async () => {
    pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_permissions');
    const options: HarnessOptions = { database, workDir: join(repoRoot, 'tmp', `permissions-${database}-${process.pid}`), ...(pg ? { databaseUrl: pg.url } : {}) };
    const project = await prepareProject(options);
    writeFileSync(join(project, 'config', 'permissions.json'), JSON.stringify({ public: PUBLIC, authenticated: [] }));
    const databaseUrl = database === 'sqlite' ? `file:${join(options.workDir, 'conformance.db')}` : (pg?.url ?? '');
    server = await startReferenceServer(project, options, { API_TOKEN_SALT: SALT });
    const token = async (...args: string[]) => (await capi(['token', 'create', ...args, '--project', project], repoRoot, { DATABASE_URL: databaseUrl, API_TOKEN_SALT: SALT })).stdout.trim();
    full = await token('--name', 'admin', '--type', 'full-access');
    readOnly = await token('--name', 'reader', '--type', 'read-only');
    creator = await token('--name', 'creator', '--type', 'custom', '--permission', 'api::article.article.create', 'api::tag.tag.find');
    const created = await fetch(`${server.url}/api/tags`, {
      method: 'POST',
      headers: { authorization: `Bearer ${full}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { name: 'matrix' } }),
    });
    tag = ((await created.json()) as { data: { documentId: string } }).data.documentId;
    category = (await post('/api/categories', { data: { name: 'Secret category' } }, full)).body.data.documentId;
  });

  afterAll(async () => {
    await server.stop();
    await pg?.drop();
  });

  /** A JSON request and its parsed answer. */
  const post = async (path: string, body: unknown, bearer?: string, method = 'POST') => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const articlesTitled = async (title: string): Promise<number> =>
    ((await (await fetch(`${server.url}/api/articles?filters[title][$eq]=${title}&status=draft`, { headers: { authorization: `Bearer ${full}` } })).json()) as { data: unknown[] }).data.length;

  const send = (method: string, path: string, bearer?: string) =>
    fetch(`${server.url}${path.replace(':tag', tag)}`, {
      method,
      headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
      ...(method === 'POST' || method === 'PUT' ? { body: JSON.stringify({ data: {} }) } : {}),
    });

  it.each(MATRIX)('public role: %s %s needs %s', async (method, path, action) => {
    const res = await send(method, path);
    if (PUBLIC.includes(action)) {
      expect(res.status, `${method} ${path}`).not.toBe(403);
    } else {
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await res.json()).toEqual({ data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } });
    }
  });

  it.each(MATRIX)('read-only token: %s %s', async (method, path, action) => {
    const res = await send(method, path, readOnly);
    const isRead = /\.(find|findOne|listLocales)$/.test(action);
    if (isRead) expect(res.status, `${method} ${path}`).not.toBe(403);
    else expect(res.status, `${method} ${path}`).toBe(403);
  });

  describe('relations to a type the caller may not read', () => {
    const refusal = (key: string, path = key) => ({
      status: 400,
      body: { data: null, error: { status: 400, name: 'ValidationError', message: path === key ? `Invalid key ${key}` : `Invalid key ${key} at ${path}`, details: { key, path, source: 'body' } } },
    });
    const missing = 'abcdefghijklmnopqrstuvwx';

    it('REST: a relation to a category (no find) is refused as any form of input, the same for an existing and a missing target, and nothing is written', async () => {
      for (const value of [category, missing, [category], { connect: [category] }, { set: [{ documentId: missing }] }, { disconnect: [category] }, null]) {
        expect(await post('/api/articles', { data: { title: 'rest-refused', category: value } }), JSON.stringify(value)).toEqual(refusal('category'));
      }
      // In a dynamic zone: the article card's article (the public role may create articles, not read them).
      const card = { __component: 'shared.article-card', title: 'card', article: missing };
      expect(await post('/api/articles', { data: { title: 'rest-refused', blocks: [card] } })).toEqual(refusal('article', 'blocks.article'));
      expect(await articlesTitled('rest-refused')).toBe(0);
      // An update is refused the same way, and leaves the document as it was.
      const created = await post('/api/articles', { data: { title: 'rest-allowed', tags: [tag] } });
      expect(created.status).toBe(201);
      const updated = await post(`/api/articles/${created.body.data.documentId}`, { data: { title: 'rest-refused', category } }, undefined, 'PUT');
      expect(updated).toEqual(refusal('category'));
      expect(await articlesTitled('rest-refused')).toBe(0);
    });

    it('REST: an API token is held to its own permissions (a custom token without category find is refused; full access is not)', async () => {
      expect(await post('/api/articles', { data: { title: 'token-refused', category } }, creator)).toEqual(refusal('category'));
      expect(await post('/api/articles', { data: { title: 'token-refused', category: missing } }, creator)).toEqual(refusal('category'));
      expect(await articlesTitled('token-refused')).toBe(0);
      expect((await post('/api/articles', { data: { title: 'token-allowed', tags: [tag] } }, creator)).status).toBe(201);
      expect((await post('/api/articles', { data: { title: 'full-allowed', category } }, full)).status).toBe(201);
    });

    it('GraphQL: the mutation is refused with the same ValidationError, for an existing and a missing target, and nothing is written', async () => {
      const mutation = 'mutation($category: ID) { createArticle(data: { title: "graphql-refused", category: $category }) { documentId } }';
      const answers = [];
      for (const target of [category, missing]) answers.push(await post('/graphql', { query: mutation, variables: { category: target } }));
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[0]?.body.data).toEqual({ createArticle: null });
      expect(answers[0]?.body.errors).toMatchObject([{ message: 'Invalid key category', extensions: { code: 'BAD_USER_INPUT', error: { name: 'ValidationError', message: 'Invalid key category' } } }]);
      expect(await articlesTitled('graphql-refused')).toBe(0);
      const allowed = await post('/graphql', { query: 'mutation($tag: ID!) { createArticle(data: { title: "graphql-allowed", tags: [$tag] }) { documentId } }', variables: { tag } });
      expect(allowed.body.errors).toBeUndefined();
    });
  });
});
