/**
 * The direct path's dispatch (direct.ts) on a bare node:http server: which requests it takes,
 * which it leaves to the fallback (Express in the real server), the order its handlers run in,
 * route parameters, errors, and the client address. test/http/direct.test.ts compares whole
 * answers with Express' on a generated server.
 */
import { createServer, IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { directListener, type DirectRoute } from './direct.ts';
import { HttpError, toErrorResponse } from './errors.ts';
import { sendJson } from './send.ts';

let server: Server | undefined;
async function stop(): Promise<void> {
  const running = server;
  server = undefined;
  if (running === undefined) return;
  running.closeAllConnections();
  await new Promise((resolve) => running.close(resolve));
}
afterEach(stop);

const trace: string[] = [];
const step =
  (name: string): RequestHandler =>
  (_req, _res, next) => {
    trace.push(name);
    next();
  };
const answer =
  (name: string): RequestHandler =>
  (req, res) => {
    trace.push(name);
    sendJson(res, 200, { route: name, params: req.params, plain: Object.getPrototypeOf(req) === IncomingMessage.prototype, ip: req.ip ?? null });
  };
const onError: ErrorRequestHandler = (error, _req, res) => {
  const { status, body } = toErrorResponse(error);
  sendJson(res, status, body);
};

const session = step('session');

async function start(routes: readonly DirectRoute[], trustProxy = false): Promise<string> {
  const listener = directListener(routes, {
    fallback: (_req, res) => {
      trace.push('fallback');
      res.statusCode = 299;
      res.end('fallback');
    },
    before: [step('request id'), step('middlewares'), session],
    forProjectCode: new Set([session]),
    onError,
    trustProxy,
  });
  server = createServer(listener);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const routes: DirectRoute[] = [
  { method: 'GET', path: '/api/articles', handlers: [step('access'), answer('find')], bare: true },
  { method: 'GET', path: '/api/articles/:documentId', handlers: [step('access'), answer('findOne')], bare: true },
  { method: 'POST', path: '/graphql', handlers: [answer('graphql')] },
];

describe('the direct path', () => {
  it('answers its routes after the app-wide handlers, on Node’s own request, with the parameter decoded', async () => {
    const base = await start(routes);
    trace.length = 0;
    const list = await fetch(`${base}/api/articles?populate=*`);
    expect(await list.json()).toEqual({ route: 'find', params: {}, plain: true, ip: '127.0.0.1' });
    // A bare route (no project code runs on it) skips what only project code needs.
    expect(trace).toEqual(['request id', 'middlewares', 'access', 'find']);
    const one = await fetch(`${base}/api/articles/a%20b%2Fc`);
    expect(await one.json()).toMatchObject({ route: 'findOne', params: { documentId: 'a b/c' } });
    trace.length = 0;
    expect((await fetch(`${base}/graphql`, { method: 'POST', body: '{}' })).status).toBe(200);
    expect(trace).toEqual(['request id', 'middlewares', 'session', 'graphql']);
  });

  it('leaves every other method, path, letter case and trailing slash to the fallback', async () => {
    const base = await start(routes);
    for (const [method, path] of [
      ['POST', '/api/articles'],
      ['HEAD', '/api/articles'],
      ['OPTIONS', '/api/articles'],
      ['GET', '/api/articles/'],
      ['GET', '/API/articles'],
      ['GET', '/api/articles/x/y'],
      ['GET', '/api/tags'],
      ['GET', '/graphql'],
      ['GET', '/'],
    ] as const) {
      trace.length = 0;
      const res = await fetch(`${base}${path}`, { method });
      expect(res.status, `${method} ${path}`).toBe(299);
      expect(trace).toEqual(['fallback']);
    }
  });

  it('sends a handler’s error, a thrown one and a chain that falls off its end to the error handler', async () => {
    class Teapot extends HttpError {
      override readonly name = 'TeapotError';
      readonly status = 418;
    }
    const base = await start([
      { method: 'GET', path: '/a', handlers: [(_req, _res, next) => next(new Teapot('short and stout'))] },
      { method: 'GET', path: '/b', handlers: [() => Promise.reject(new Teapot('rejected'))] },
      { method: 'GET', path: '/c', handlers: [step('only')] },
    ]);
    const a = await fetch(`${base}/a`);
    expect(a.status).toBe(418);
    expect((await a.json()).error).toMatchObject({ name: 'TeapotError', message: 'short and stout' });
    expect((await fetch(`${base}/b`)).status).toBe(418);
    const c = await fetch(`${base}/c`);
    expect(c.status).toBe(404);
    expect((await c.json()).error).toMatchObject({ name: 'NotFoundError' });
  });

  it('takes the client address from X-Forwarded-For only behind a trusted proxy, as Express does', async () => {
    const direct = await start(routes);
    expect(await (await fetch(`${direct}/api/articles`, { headers: { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' } })).json()).toMatchObject({ ip: '127.0.0.1' });
    await stop();
    const proxied = await start(routes, true);
    expect(await (await fetch(`${proxied}/api/articles`, { headers: { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' } })).json()).toMatchObject({ ip: '203.0.113.7' });
    expect(await (await fetch(`${proxied}/api/articles`)).json()).toMatchObject({ ip: '127.0.0.1' });
  });

  it('is the fallback itself when it has no routes', () => {
    const fallback = (): void => undefined;
    expect(directListener([], { fallback, before: [], onError, trustProxy: false })).toBe(fallback);
  });
});
