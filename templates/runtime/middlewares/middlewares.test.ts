import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import express from 'express';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import type { ModelSchema } from '../schema.ts';
import { startServer, type RunningServer } from '../server.ts';

const model: ModelSchema = { contentTypes: {}, components: {} };
const root = mkdtempSync(join(tmpdir(), 'capi-middlewares-'));
let counter = 0;
const running: RunningServer[] = [];

afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Started {
  readonly server: RunningServer;
  readonly lines: () => Array<Record<string, unknown>>;
}

/** A server with `config/middlewares.json` (Strapi's default list when undefined) and an API route or two. */
async function start(middlewares?: unknown, files: Record<string, string> = {}, env: Record<string, string> = {}, level: 'info' | 'warn' = 'info'): Promise<Started> {
  const dir = join(root, `project-${++counter}`);
  mkdirSync(join(dir, 'prisma', 'migrations'), { recursive: true });
  mkdirSync(join(dir, 'config'));
  if (middlewares !== undefined) writeFileSync(join(dir, 'config', 'middlewares.json'), JSON.stringify(middlewares));
  for (const [path, contents] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), contents);
  }
  const out: string[] = [];
  const logger = createLogger({ level, destination: { write: (line: string) => void out.push(line) } });
  const api = express.Router();
  api.get('/articles', (_req, res) => void res.json({ data: [{ id: 1, title: 'Hello' }], meta: {} }));
  api.get('/big', (_req, res) => void res.json({ data: 'x'.repeat(5000) }));
  api.post('/echo', (req, res) => void res.json({ data: req.body as unknown }));
  // What an extension's route does with the session (ctx.req.session).
  const visits: express.RequestHandler = (req, res) => {
    const visits = Number(req.session?.visits ?? 0) + 1;
    if (req.session) req.session.visits = visits;
    res.json({ data: { visits } });
  };
  api.get('/visits', visits);
  // The same route in an Express app of its own, mounted below the API (its requests have that app's prototype).
  const mounted = express();
  mounted.get('/visits', visits);
  api.use('/mounted', mounted);
  // Touching the session first through its options, or by replacing it: cookie-session's own forms.
  api.get('/remember', (req, res) => {
    req.sessionOptions.maxAge = 60_000;
    req.session = { remembered: true };
    res.json({ data: { remembered: true } });
  });
  api.get('/forget', (req, res) => {
    req.session = null;
    res.json({ data: { forgotten: true } });
  });
  api.get('/boom', () => {
    throw new Error('internal detail');
  });
  const server = await startServer({ projectRoot: dir, model, env: { HOST: '127.0.0.1', PORT: '0', ...env }, logger, handleSignals: false, mounts: [() => ({ path: '/api', handler: api })] });
  running.push(server);
  return { server, lines: () => out.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

/** A raw request, so that the answer is seen as sent (fetch would decompress it). */
function raw(url: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe("strapi::security (helmet, Strapi's defaults)", () => {
  it('puts the security headers on API JSON answers too', async () => {
    const { server } = await start();
    const response = await fetch(`${server.url}/api/articles`);
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("connect-src 'self' https:");
    expect(csp).toContain("img-src 'self' data: blob: https://market-assets.strapi.io");
    expect(csp).toContain("media-src 'self' data: blob:");
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
    expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    // Strapi turns these off.
    expect(response.headers.get('cross-origin-embedder-policy')).toBeNull();
    expect(response.headers.get('cross-origin-resource-policy')).toBeNull();
    expect(response.headers.get('origin-agent-cluster')).toBeNull();
    expect(response.headers.get('x-xss-protection')).toBeNull();
  });

  it('also on error answers, and takes the options of Strapi projects', async () => {
    const { server } = await start([
      'strapi::body',
      { name: 'strapi::security', config: { frameguard: false, contentSecurityPolicy: { directives: { 'img-src': ["'self'", 'https://cdn.example'] } } } },
    ]);
    const response = await fetch(`${server.url}/api/nothing-here`);
    expect(response.status).toBe(404);
    expect(response.headers.get('x-frame-options')).toBeNull();
    expect(response.headers.get('content-security-policy')).toContain("img-src 'self' https://cdn.example");
  });
});

describe('strapi::cors', () => {
  it('answers a preflight with 204 and the configured methods, headers and max age', async () => {
    const { server } = await start();
    const response = await fetch(`${server.url}/api/articles`, {
      method: 'OPTIONS',
      headers: { origin: 'https://front.example', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization' },
    });
    expect(response.status).toBe(204);
    // Any origin by default, and so no credentials: a page elsewhere cannot act with a visitor's cookies.
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('access-control-allow-methods')).toBe('GET,POST,PUT,PATCH,DELETE,HEAD,OPTIONS');
    expect(response.headers.get('access-control-allow-headers')).toBe('Content-Type,Authorization,Origin,Accept');
    expect(response.headers.get('access-control-max-age')).toBe('31536000');
  });

  it('echoes a listed origin, gives none to others, and `*` to requests without an Origin', async () => {
    const { server } = await start(['strapi::body', { name: 'strapi::cors', config: { origin: ['https://front.example'], credentials: false, expose: ['X-Request-Id'] } }]);
    const listed = await fetch(`${server.url}/api/articles`, { headers: { origin: 'https://front.example' } });
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://front.example');
    expect(listed.headers.get('access-control-allow-credentials')).toBeNull();
    expect(listed.headers.get('access-control-expose-headers')).toBe('X-Request-Id');
    expect(listed.headers.get('vary')).toContain('Origin');
    const other = await fetch(`${server.url}/api/articles`, { headers: { origin: 'https://evil.example' } });
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${server.url}/api/articles`, { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'DELETE' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const noOrigin = await fetch(`${server.url}/api/articles`);
    expect(noOrigin.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('allows credentials to listed origins by default, and never echoes an unlisted one', async () => {
    const { server } = await start(['strapi::body', { name: 'strapi::cors', config: { origin: ['https://front.example'] } }]);
    const listed = await fetch(`${server.url}/api/articles`, { headers: { origin: 'https://front.example' } });
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://front.example');
    expect(listed.headers.get('access-control-allow-credentials')).toBe('true');
    const other = await fetch(`${server.url}/api/articles`, { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('is absent when the list leaves it out', async () => {
    const { server } = await start(['strapi::body']);
    const response = await fetch(`${server.url}/api/articles`, { headers: { origin: 'https://front.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    expect(response.headers.get('content-security-policy')).toBeNull();
  });
});

describe('strapi::poweredBy', () => {
  it('says capi in X-Powered-By, or the configured name', async () => {
    const defaults = await start();
    expect((await fetch(`${defaults.server.url}/api/articles`)).headers.get('x-powered-by')).toBe('capi');
    const custom = await start(['strapi::body', { name: 'strapi::poweredBy', config: { poweredBy: 'Acme CMS' } }]);
    expect((await fetch(`${custom.server.url}/api/articles`)).headers.get('x-powered-by')).toBe('Acme CMS');
    const none = await start(['strapi::body']);
    expect((await fetch(`${none.server.url}/api/articles`)).headers.get('x-powered-by')).toBeNull();
  });
});

describe('strapi::compression', () => {
  it('compresses answers above the threshold with br or gzip, and leaves small ones alone', async () => {
    const { server } = await start(['strapi::body', 'strapi::compression']);
    const gzip = await raw(`${server.url}/api/big`, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.body).toString('utf8'))).toEqual({ data: 'x'.repeat(5000) });
    const br = await raw(`${server.url}/api/big`, { 'accept-encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.body).toString('utf8'))).toEqual({ data: 'x'.repeat(5000) });
    const small = await raw(`${server.url}/api/articles`, { 'accept-encoding': 'gzip, br' });
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('takes koa-compress options: threshold and encodings turned off', async () => {
    const { server } = await start(['strapi::body', { name: 'strapi::compression', config: { threshold: 10, br: false } }]);
    const small = await raw(`${server.url}/api/articles`, { 'accept-encoding': 'br, gzip' });
    expect(small.headers['content-encoding']).toBe('gzip');
  });
});

describe('strapi::logger', () => {
  it('logs one info line per request with method, path, status, time and request id, echoed as X-Request-Id', async () => {
    const { server, lines } = await start();
    const response = await fetch(`${server.url}/api/articles?token=secret`);
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const logged = lines().filter((line) => line.reqId === id);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 30, req: { method: 'GET', path: '/api/articles' }, res: { status: 200 }, msg: expect.stringMatching(/^GET \/api\/articles 200 \d+ms$/) });
    expect(typeof logged[0]?.responseTime).toBe('number');
    expect(JSON.stringify(logged)).not.toContain('secret');
  });

  it("takes the caller's X-Request-Id when it is sane, and carries it into error logs", async () => {
    const { server, lines } = await start();
    const response = await fetch(`${server.url}/api/boom`, { headers: { 'x-request-id': 'lb-1234.abcd' } });
    expect(response.status).toBe(500);
    expect(response.headers.get('x-request-id')).toBe('lb-1234.abcd');
    const mine = lines().filter((line) => line.reqId === 'lb-1234.abcd');
    expect(mine.map((line) => line.msg)).toEqual(['unhandled error', expect.stringMatching(/^GET \/api\/boom 500/)]);
    expect(mine.every((line) => line.level === 50)).toBe(true);
    const forged = await fetch(`${server.url}/api/articles`, { headers: { 'x-request-id': 'bad id\twith spaces' } });
    expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('above info, logs only the failed requests, with the same fields and message', async () => {
    const { server, lines } = await start(undefined, {}, {}, 'warn');
    await fetch(`${server.url}/api/articles`, { headers: { 'x-request-id': 'quiet-ok' } });
    const failed = await fetch(`${server.url}/api/boom`, { headers: { 'x-request-id': 'quiet-boom' } });
    expect(failed.status).toBe(500);
    expect(lines().filter((line) => line.reqId === 'quiet-ok')).toEqual([]);
    const mine = lines().filter((line) => line.reqId === 'quiet-boom');
    expect(mine.map((line) => line.msg)).toEqual(['unhandled error', 'GET /api/boom 500 failed']);
    expect(mine[1]).toMatchObject({ level: 50, req: { method: 'GET', path: '/api/boom' }, res: { status: 500 }, err: { message: 'failed with status code 500' } });
    expect(typeof mine[1]?.responseTime).toBe('number');
  });

  it('logs nothing per request without it, but still answers with an id', async () => {
    const { server, lines } = await start(['strapi::body']);
    const response = await fetch(`${server.url}/api/articles`);
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines().filter((line) => line.req !== undefined)).toEqual([]);
  });
});

describe('strapi::body', () => {
  it('refuses a body over its limit with a 413 in the Strapi envelope', async () => {
    const { server } = await start(['strapi::errors', { name: 'strapi::body', config: { jsonLimit: '1kb', formLimit: 100 } }]);
    const big = await fetch(`${server.url}/api/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: 'x'.repeat(2000) }) });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ data: null, error: { status: 413, name: 'PayloadTooLargeError', message: 'Request body too large', details: { limit: 1024 } } });
    const form = await fetch(`${server.url}/api/echo`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `a=${'y'.repeat(200)}` });
    expect(form.status).toBe(413);
    const ok = await fetch(`${server.url}/api/echo`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a[b]=1' });
    expect(await ok.json()).toEqual({ data: { a: { b: '1' } } });
  });
});

describe('strapi::query', () => {
  it("applies its qs limits to the content API's query strings, and the defaults without it", async () => {
    const { parseQueryString } = await import('../query/query-string.ts');
    await start(['strapi::body', { name: 'strapi::query', config: { arrayLimit: 5, depth: 3 } }]);
    expect(() => parseQueryString('fields[5]=a')).toThrow('Invalid query string: an array has more than 5 items');
    expect(() => parseQueryString('a[b][c][d][e]=1')).toThrow('Invalid query string: brackets nested deeper than 3 levels');
    await start(['strapi::body']);
    expect(parseQueryString('fields[5]=a')).toEqual({ fields: ['a'] });
  });
});

describe('strapi::public and strapi::favicon', () => {
  it("serves the project's public/ folder and favicon, never in front of the API", async () => {
    const { server } = await start(undefined, { 'public/robots.txt': 'User-agent: *\n', 'public/index.html': '<h1>hi</h1>', 'public/api/articles': 'shadow', 'favicon.ico': 'ICO' });
    const robots = await fetch(`${server.url}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(await robots.text()).toBe('User-agent: *\n');
    expect(robots.headers.get('cache-control')).toBe('public, max-age=60');
    expect(await (await fetch(`${server.url}/`)).text()).toBe('<h1>hi</h1>');
    expect(await (await fetch(`${server.url}/api/articles`)).json()).toEqual({ data: [{ id: 1, title: 'Hello' }], meta: {} });
    const icon = await fetch(`${server.url}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(await (await fetch(`${server.url}/missing.txt`)).json()).toMatchObject({ error: { status: 404, name: 'NotFoundError' } });
  });
});

describe("strapi::session (cookie-session, koa-session's options)", () => {
  /** The cookies an answer sets, as `name=value` pairs, and the attributes of the first. */
  const cookiesOf = (response: Response): { pairs: string[]; attributes: string } => {
    const set = response.headers.getSetCookie();
    return { pairs: set.map((cookie) => cookie.split(';')[0] ?? ''), attributes: set[0] ?? '' };
  };

  it('keeps a session across requests in a signed cookie, and costs no cookie to a request that does not use it', async () => {
    const { server } = await start(undefined, {}, { APP_KEYS: 'first-key,second-key' });
    const first = await fetch(`${server.url}/api/visits`);
    expect(await first.json()).toEqual({ data: { visits: 1 } });
    const { pairs, attributes } = cookiesOf(first);
    expect(pairs.map((pair) => pair.split('=')[0])).toEqual(['koa.sess', 'koa.sess.sig']);
    expect(attributes).toMatch(/; path=\/; expires=.+; httponly$/i);
    const cookie = pairs.join('; ');
    const second = await fetch(`${server.url}/api/visits`, { headers: { cookie } });
    expect(await second.json()).toEqual({ data: { visits: 2 } });
    const third = await fetch(`${server.url}/api/visits`, { headers: { cookie: cookiesOf(second).pairs.join('; ') } });
    expect(await third.json()).toEqual({ data: { visits: 3 } });
    // A session whose signature does not match is not read: it starts again.
    const forged = cookie.replace(/koa\.sess=([^;]+)/, `koa.sess=${Buffer.from(JSON.stringify({ visits: 99 })).toString('base64')}`);
    expect(await (await fetch(`${server.url}/api/visits`, { headers: { cookie: forged } })).json()).toEqual({ data: { visits: 1 } });
    // API answers that never touch the session set no cookie.
    expect((await fetch(`${server.url}/api/articles`)).headers.getSetCookie()).toEqual([]);
  });

  it('starts on the first touch of req.session or req.sessionOptions, setting or reading', async () => {
    const { server } = await start(undefined, {}, { APP_KEYS: 'first-key' });
    const remembered = await fetch(`${server.url}/api/remember`);
    const { pairs, attributes } = cookiesOf(remembered);
    expect(pairs.map((pair) => pair.split('=')[0])).toEqual(['koa.sess', 'koa.sess.sig']);
    // The options set before the session apply to its cookie: it expires in a minute.
    const expires = Date.parse(/expires=([^;]+)/i.exec(attributes)?.[1] ?? '');
    expect(expires - Date.now()).toBeGreaterThan(30_000);
    expect(expires - Date.now()).toBeLessThan(90_000);
    const visited = await fetch(`${server.url}/api/visits`, { headers: { cookie: pairs.join('; ') } });
    expect(await visited.json()).toEqual({ data: { visits: 1 } });
    // Setting it to null clears the cookie.
    const forgotten = cookiesOf(await fetch(`${server.url}/api/forget`, { headers: { cookie: pairs.join('; ') } }));
    expect(forgotten.pairs[0]).toBe('koa.sess=');
  });

  it("takes Strapi's option names, and without APP_KEYS warns once, when a session is first used", async () => {
    const { server, lines } = await start(['strapi::errors', 'strapi::body', { name: 'strapi::session', config: { key: 'sid', sameSite: 'lax', maxAge: 'session' } }]);
    await fetch(`${server.url}/api/articles`);
    const warning = (): unknown[] => lines().filter((line) => String(line.msg).startsWith('strapi::session: APP_KEYS is not set'));
    expect(warning()).toHaveLength(0);
    const first = await fetch(`${server.url}/api/visits`);
    const { pairs, attributes } = cookiesOf(first);
    expect(pairs.map((pair) => pair.split('=')[0])).toEqual(['sid', 'sid.sig']);
    expect(attributes).toMatch(/^sid=[^;]+; path=\/; samesite=lax; httponly$/i);
    const second = await fetch(`${server.url}/api/visits`, { headers: { cookie: pairs.join('; ') } });
    expect(await second.json()).toEqual({ data: { visits: 2 } });
    expect(warning()).toHaveLength(1);
  });

  it('reaches routes of a mounted Express app, and is absent where the list has no strapi::session', async () => {
    const { server } = await start(undefined, {}, { APP_KEYS: 'first-key' });
    const first = await fetch(`${server.url}/api/mounted/visits`);
    expect(await first.json()).toEqual({ data: { visits: 1 } });
    const cookie = cookiesOf(first).pairs.join('; ');
    expect(await (await fetch(`${server.url}/api/mounted/visits`, { headers: { cookie } })).json()).toEqual({ data: { visits: 2 } });
    expect(await (await fetch(`${server.url}/api/visits`, { headers: { cookie } })).json()).toEqual({ data: { visits: 2 } });
    // Another app in the same process without the middleware: no session, no cookie, as in Strapi.
    const { server: bare } = await start(['strapi::errors', 'strapi::body']);
    const answer = await fetch(`${bare.url}/api/visits`, { headers: { cookie } });
    expect(await answer.json()).toEqual({ data: { visits: 1 } });
    expect(answer.headers.getSetCookie()).toEqual([]);
    const replaced = await fetch(`${bare.url}/api/forget`);
    expect(replaced.status).toBe(200);
    expect(replaced.headers.getSetCookie()).toEqual([]);
  });
});
