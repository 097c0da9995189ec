/**
 * /api/openapi.json and the Swagger UI page: the project's document served as written, the page
 * and every asset it names served by this server from swagger-ui-dist (nothing from a CDN), and
 * both off in production unless plugins.json turns them on.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { startServer, type RunningServer } from '../server.ts';
import type { ContentTypeSchema } from '../schema.ts';
import { docsPathTaken, openapiMount, OPENAPI_FILE } from './index.ts';

const root = mkdtempSync(join(tmpdir(), 'capi-openapi-'));
const running: RunningServer[] = [];
let projects = 0;
const swaggerDist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const DOCUMENT = { openapi: '3.1.0', info: { title: 'Test', version: '1' }, paths: {} };

async function start(options: { env?: Record<string, string>; documentation?: unknown; document?: boolean } = {}): Promise<RunningServer> {
  const dir = join(root, `project-${++projects}`);
  mkdirSync(join(dir, 'prisma', 'migrations'), { recursive: true });
  mkdirSync(join(dir, 'config'), { recursive: true });
  if (options.document !== false) writeFileSync(join(dir, OPENAPI_FILE), JSON.stringify(DOCUMENT));
  if (options.documentation !== undefined) writeFileSync(join(dir, 'config', 'plugins.json'), JSON.stringify({ documentation: options.documentation }));
  const server = await startServer({
    projectRoot: dir,
    model: { contentTypes: {}, components: {} },
    env: { HOST: '127.0.0.1', PORT: '0', ...options.env },
    logger: createLogger({ level: 'silent' }),
    handleSignals: false,
    mounts: [(app) => openapiMount(app)],
  });
  running.push(server);
  return server;
}

afterAll(async () => {
  for (const server of running) await server.close();
  rmSync(root, { recursive: true, force: true });
});

describe('GET /api/openapi.json', () => {
  it('serves the document of the project as JSON outside production', async () => {
    const server = await start({ env: { NODE_ENV: 'development' } });
    const response = await fetch(`${server.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(DOCUMENT);
  });

  it('is off in production unless plugins.json enables it, as the page is', async () => {
    const production = await start({ env: { NODE_ENV: 'production' } });
    expect((await fetch(`${production.url}/api/openapi.json`)).status).toBe(404);
    const enabled = await start({ env: { NODE_ENV: 'production' }, documentation: { enabled: true } });
    expect(await (await fetch(`${enabled.url}/api/openapi.json`)).json()).toEqual(DOCUMENT);
    const disabled = await start({ env: { NODE_ENV: 'development' }, documentation: { enabled: false } });
    expect((await fetch(`${disabled.url}/api/openapi.json`)).status).toBe(404);
  });

  it('is absent, with the page, when the project has no document', async () => {
    const server = await start({ document: false });
    expect((await fetch(`${server.url}/api/openapi.json`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/docs`)).status).toBe(404);
  });
});

describe('the Swagger UI page', () => {
  it('is served outside production, with every asset from this server', async () => {
    const server = await start({ env: { NODE_ENV: 'development' } });
    const response = await fetch(`${server.url}/api/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await response.text();
    expect(page).not.toMatch(/https?:\/\//);
    const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(assets).toEqual(['./docs/swagger-ui.css', './docs/favicon-32x32.png', './docs/swagger-ui-bundle.js', './docs/swagger-ui-standalone-preset.js', './docs/init.js']);
    for (const asset of assets) {
      const url = new URL(asset, `${server.url}/api/docs`);
      const served = await fetch(url);
      expect(served.status, asset).toBe(200);
      const bytes = Buffer.from(await served.arrayBuffer());
      if (asset.endsWith('init.js')) {
        // The page loads the document from beside itself.
        expect(bytes.toString()).toContain("new URL('./openapi.json', window.location.href)");
        expect(served.headers.get('content-type')).toMatch(/^text\/javascript/);
      } else {
        expect(bytes.equals(readFileSync(join(swaggerDist, asset.replace('./docs/', ''))))).toBe(true);
      }
    }
  });

  it('sends /api/docs/ to /api/docs, where the relative asset paths resolve', async () => {
    const server = await start({ env: { NODE_ENV: 'development' } });
    const response = await fetch(`${server.url}/api/docs/`, { redirect: 'manual' });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/api/docs');
  });

  it('serves nothing else of swagger-ui-dist', async () => {
    const server = await start({ env: { NODE_ENV: 'development' } });
    for (const file of ['package.json', 'index.html', 'swagger-initializer.js', 'swagger-ui.js.map']) {
      expect((await fetch(`${server.url}/api/docs/${file}`)).status, file).toBe(404);
    }
  });

  it('is off in production unless plugins.json enables it, and off anywhere it disables it', async () => {
    const production = await start({ env: { NODE_ENV: 'production' } });
    expect((await fetch(`${production.url}/api/docs`)).status).toBe(404);
    expect((await fetch(`${production.url}/api/docs/swagger-ui-bundle.js`)).status).toBe(404);
    const enabled = await start({ env: { NODE_ENV: 'production' }, documentation: { enabled: true } });
    expect((await fetch(`${enabled.url}/api/docs`)).status).toBe(200);
    const disabled = await start({ env: { NODE_ENV: 'development' }, documentation: { enabled: false } });
    expect((await fetch(`${disabled.url}/api/docs`)).status).toBe(404);
  });

  it('refuses a documentation setting that is not a boolean, naming the file and key', async () => {
    await expect(start({ documentation: { enabled: 'yes' } })).rejects.toThrow(/config\/plugins\.json.*documentation\.enabled/);
  });
});

describe('a content type served at /api/docs', () => {
  const type = (kind: 'collectionType' | 'singleType', singularName: string, pluralName: string): ContentTypeSchema => ({
    uid: `api::${singularName}.${singularName}`,
    kind,
    singularName,
    pluralName,
    table: pluralName,
    draftAndPublish: false,
    localized: false,
    attributes: {},
  });
  it('keeps its route: the page gives way', () => {
    expect(docsPathTaken({ contentTypes: { a: type('collectionType', 'doc', 'docs') }, components: {} })).toBe(true);
    expect(docsPathTaken({ contentTypes: { a: type('singleType', 'docs', 'docss') }, components: {} })).toBe(true);
    expect(docsPathTaken({ contentTypes: { a: type('singleType', 'doc', 'docs') }, components: {} })).toBe(false);
    expect(docsPathTaken({ contentTypes: { a: type('collectionType', 'docs', 'docses') }, components: {} })).toBe(false);
  });
});
