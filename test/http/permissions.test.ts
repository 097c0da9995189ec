/**
 * The permission matrix through HTTP, on SQLite and PostgreSQL: every content-API action is
 * refused with Strapi's 403 envelope unless config/permissions.json grants it to the public role
 * (or the request's API token allows it).
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
const PUBLIC = ['api::tag.tag.find', 'api::tag.tag.findOne', 'api::global.global.find', 'plugin::upload.content-api.find'];

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
  let readOnly = '';

  beforeAll(async () => {
    pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_permissions');
    const options: HarnessOptions = { database, workDir: join(repoRoot, 'tmp', `permissions-${database}-${process.pid}`), ...(pg ? { databaseUrl: pg.url } : {}) };
    const project = await prepareProject(options);
    writeFileSync(join(project, 'config', 'permissions.json'), JSON.stringify({ public: PUBLIC, authenticated: [] }));
    const databaseUrl = database === 'sqlite' ? `file:${join(options.workDir, 'conformance.db')}` : (pg?.url ?? '');
    server = await startReferenceServer(project, options, { API_TOKEN_SALT: SALT });
    const full = (await capi(['token', 'create', '--name', 'admin', '--type', 'full-access', '--project', project], repoRoot, { DATABASE_URL: databaseUrl, API_TOKEN_SALT: SALT })).stdout.trim();
    readOnly = (await capi(['token', 'create', '--name', 'reader', '--type', 'read-only', '--project', project], repoRoot, { DATABASE_URL: databaseUrl, API_TOKEN_SALT: SALT })).stdout.trim();
    const created = await fetch(`${server.url}/api/tags`, {
      method: 'POST',
      headers: { authorization: `Bearer ${full}`, 'content-type': 'application/json' },
      body: JSON.stringify({ data: { name: 'matrix' } }),
    });
    tag = ((await created.json()) as { data: { documentId: string } }).data.documentId;
  });

  afterAll(async () => {
    await server.stop();
    await pg?.drop();
  });

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
});
