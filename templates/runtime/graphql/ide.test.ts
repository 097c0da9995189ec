/**
 * The GraphiQL IDE: served by our server alone (HTTP checks), and usable in a real browser with no
 * request leaving 127.0.0.1 (headless Chromium through playwright-core). CI installs Chromium
 * (.ci/run); without it the browser test fails and says how to install it, rather than skipping.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { startServer, type RunningServer } from '../server.ts';
import { graphqlMount, type GraphqlSetup } from './server.ts';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const chromiumFlags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const setup: GraphqlSetup<{ readonly greeting: string }> = {
  typeDefs: 'type Query { hello: String }',
  resolvers: { Query: { hello: (_parent: unknown, _args: unknown, context: { greeting: string }) => context.greeting } },
  context: () => ({ greeting: 'world' }),
};

const root = mkdtempSync(join(tmpdir(), 'capi-graphiql-'));
let projects = 0;
const running: RunningServer[] = [];

async function start(graphql: GraphqlSetup<{ readonly greeting: string }> = setup): Promise<RunningServer> {
  const dir = join(root, `project-${++projects}`);
  mkdirSync(join(dir, 'prisma', 'migrations'), { recursive: true });
  const server = await startServer({
    projectRoot: dir,
    model: { contentTypes: {}, components: {} },
    env: { HOST: '127.0.0.1', PORT: '0' },
    logger: createLogger({ level: 'silent' }),
    handleSignals: false,
    mounts: [graphqlMount(graphql)],
  });
  running.push(server);
  return server;
}

afterAll(async () => {
  for (const server of running) await server.close();
  rmSync(root, { recursive: true, force: true });
});

const browserAccept = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('the IDE over HTTP', () => {
  let server: RunningServer;
  let page: string;
  beforeAll(async () => {
    server = await start();
    const response = await fetch(`${server.url}/graphql`, { headers: { accept: browserAccept } });
    expect(response.status).toBe(200);
    page = await response.text();
  });

  const assetUrls = (): string[] => [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');

  it('serves a small HTML page to browsers, with a same-origin CSP', async () => {
    const response = await fetch(`${server.url}/graphql`, { headers: { accept: browserAccept } });
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.length).toBeLessThan(10_000);
    expect(page).toContain('"endpoint":"/graphql"');
    expect(page).not.toMatch(/https?:\/\//);
  });

  it('serves every asset the page names from this server, cacheable forever', async () => {
    const urls = assetUrls();
    expect(urls.length).toBe(5);
    for (const url of urls) {
      expect(url).toMatch(/^\/graphql\/ide\/[0-9a-f]{16}\//);
      const response = await fetch(`${server.url}${url}`, { headers: { 'accept-encoding': 'identity' } });
      expect(response.status, url).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      // The IDE's policy (workers run under their own response's), not the API's helmet one.
      expect(response.headers.get('content-security-policy'), url).toContain("worker-src 'self' blob:");
      expect((await response.arrayBuffer()).byteLength, url).toBeGreaterThan(0);
    }
  });

  it('compresses the bundle for clients that accept gzip', async () => {
    const url = assetUrls().find((candidate) => candidate.endsWith('/graphiql.js'));
    expect(url).toBeDefined();
    // fetch would inflate transparently; ask through node:http-level bytes instead.
    const { request } = await import('node:http');
    const body = await new Promise<{ encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
      request(`${server.url}${url}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ encoding: res.headers['content-encoding'], bytes: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
        .on('error', reject)
        .end();
    });
    expect(body.encoding).toBe('gzip');
    const inflated = gunzipSync(body.bytes);
    expect(body.bytes.length).toBeLessThan(inflated.length / 2);
    expect(inflated.toString('utf8', 0, 200)).toContain('YogaGraphiQL');
  });

  it('answers 404 for unknown assets and stale hashes', async () => {
    expect((await fetch(`${server.url}/graphql/ide/0000000000000000/graphiql.js`)).status).toBe(404);
    const url = assetUrls()[0] ?? '';
    expect((await fetch(`${server.url}${url.replace(/[^/]+$/, 'nope.js')}`)).status).toBe(404);
  });

  it('gives API clients GraphQL, not the page', async () => {
    const response = await fetch(`${server.url}/graphql?query=${encodeURIComponent('{ hello }')}`, { headers: { 'apollo-require-preflight': 'true' } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { hello: 'world' } });
  });

  it('can be turned off', async () => {
    const off = await start({ ...setup, ide: false });
    const response = await fetch(`${off.url}/graphql`, { headers: { accept: browserAccept, 'apollo-require-preflight': 'true' } });
    expect(response.headers.get('content-type')).not.toMatch(/text\/html/);
    expect(response.status).toBe(400);
    expect((await fetch(`${off.url}/graphql/ide/0000000000000000/graphiql.js`)).status).toBe(404);
  });
});

describe('the IDE in a browser', () => {
  let browser: Browser | undefined;
  afterAll(async () => {
    await browser?.close();
  });

  it('runs a query typed into the editor, with no request leaving 127.0.0.1', async () => {
    if (!existsSync(chromiumPath)) {
      throw new Error(`Chromium is not installed at ${chromiumPath}: install it with \`apt-get install -y chromium\` (the line in .ci/run), or set CHROMIUM_PATH`);
    }
    const server = await start();
    browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
    const context = await browser.newContext();
    const page = await context.newPage();

    const requested: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => void requested.push(request.url()));
    page.on('pageerror', (error) => void problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });

    await page.goto(`${server.url}/graphql`);
    const editor = page.locator('.graphiql-query-editor .monaco-editor').first();
    await editor.waitFor({ state: 'visible', timeout: 60_000 });
    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText('query Greeting { hello }');
    await page.locator('.graphiql-execute-button').click();

    const result = page.locator('.graphiql-response');
    await expect.poll(async () => (await result.textContent()) ?? '', { timeout: 30_000 }).toContain('"world"');
    expect((await result.textContent())?.replace(/\s+/g, ' ')).toContain('"hello": "world"');

    const origin = new URL(server.url);
    const external = requested.filter((url) => {
      const parsed = new URL(url);
      if (parsed.protocol === 'data:' || parsed.protocol === 'about:') return false;
      if (parsed.protocol === 'blob:') return new URL(parsed.pathname).host !== origin.host;
      return parsed.hostname !== '127.0.0.1';
    });
    expect(external).toEqual([]);
    expect(requested.some((url) => url.startsWith(`${server.url}/graphql/ide/`))).toBe(true);
    expect(problems).toEqual([]);
  });
});
