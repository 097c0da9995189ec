/**
 * Metrics and traces of generated servers, scraped and received the way Prometheus and an OTLP
 * collector would: counters and histograms by route pattern (REST and GraphQL, direct path and
 * Express), SQL statement counts against X-Query-Count, pool use and the webhook backlog, on
 * SQLite, PostgreSQL and MySQL; under `--workers 2` one scrape sums both workers; traces sent to
 * an OTLP/HTTP receiver in the test (JSON and protobuf) carry the caller's traceparent, a span per
 * SQL statement, and the trace id in the request log; with both off, neither prom-client nor
 * OpenTelemetry is even imported.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capi, freePort, grant, scratch, startServer, testJwtSecret, type RunningServer } from '../support/cli.ts';
import { clients, createServerDatabase, type Client } from '../support/databases.ts';
import { exampleContentTypes } from '../support/model.ts';
import type { TestDatabase } from '../support/postgres.ts';

const TOKEN = 'scrape-token-of-the-test';

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** Prometheus' text format, the sample lines. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null) continue;
    const labels: Record<string, string> = {};
    for (const [, key = '', value = ''] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key] = value;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of `name`'s samples whose labels include `labels`. */
function total(samples: readonly Sample[], name: string, labels: Readonly<Record<string, string>> = {}): number {
  return samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);
}

async function scrape(url: string, token: string | undefined = TOKEN): Promise<Sample[]> {
  const answer = await fetch(url, { headers: { connection: 'close', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) } });
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parse(await answer.text());
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer(handler);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address !== null ? address.port : 0 });
    });
  });
}

function close(server: Server | undefined): Promise<void> {
  if (server === undefined) return Promise.resolve();
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

async function generate(dir: string, database: Client): Promise<string> {
  const project = join(dir, 'api');
  const generated = await capi(['generate', '--content-types', exampleContentTypes, '--out', project, '--database', database, '--quiet']);
  if (generated.code !== 0) throw new Error(generated.stderr + generated.stdout);
  grant(project, 'public', ['api::tag.tag.find', 'api::tag.tag.findOne', 'api::tag.tag.create']);
  return project;
}

function setMetrics(project: string, metrics: Record<string, unknown> | undefined): void {
  const path = join(project, 'config', 'server.json');
  const server = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  if (metrics === undefined) delete server.metrics;
  else server.metrics = metrics;
  writeFileSync(path, `${JSON.stringify(server, null, 2)}\n`);
}

const graphqlTags = (url: string): Promise<Response> =>
  fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ tags { name } }' }) });

describe.each(clients)('metrics on %s', (database) => {
  const space = scratch(`metrics-${database}`);
  let pg: TestDatabase | undefined;
  let server: RunningServer | undefined;
  let hook: Server | undefined;
  /** Webhook requests held until the test answers them. */
  const held: ServerResponse[] = [];

  beforeAll(async () => {
    pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_metrics');
    const project = await generate(space.dir, database);
    setMetrics(project, { enabled: true });
    const receiver = await listen((req, res) => {
      req.resume();
      held.push(res);
    });
    hook = receiver.server;
    const webhooks = [{ name: 'indexer', url: `http://127.0.0.1:${receiver.port}/hook`, events: ['entry.create'] }];
    writeFileSync(join(project, 'config', 'webhooks.json'), JSON.stringify(webhooks));
    server = await startServer(project, {
      DATABASE_URL: pg?.url ?? `file:${join(space.dir, 'data.db')}`,
      METRICS_TOKEN: TOKEN,
      CAPI_QUERY_COUNT: '1',
      // One attempt, and no polling: once a delivery has failed, the worker runs no statement.
      CAPI_WEBHOOK_MAX_ATTEMPTS: '1',
      CAPI_WEBHOOK_POLL_MS: '3600000',
      CAPI_WEBHOOK_TIMEOUT_MS: '60000',
      LOG_LEVEL: 'warn',
    });
  }, 240_000);

  afterAll(async () => {
    for (const res of held) if (!res.writableEnded) res.destroy();
    await server?.kill();
    await close(hook);
    await pg?.drop();
    space.dispose();
  });

  it('answers a scrape only with the bearer token', async () => {
    const refused = await fetch(`${server!.url}/metrics`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(((await refused.json()) as { error: { status: number; name: string } }).error).toMatchObject({ status: 401, name: 'UnauthorizedError' });
    expect((await fetch(`${server!.url}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
  });

  it('counts and times requests by method, route pattern and status, on every request path', async () => {
    const url = server!.url;
    const created = await fetch(`${url}/api/tags`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { name: 'metrics' } }) });
    expect(created.status).toBe(201);
    const documentId = ((await created.json()) as { data: { documentId: string } }).data.documentId;
    expect((await fetch(`${url}/api/tags?filters[name][$eq]=metrics`)).status).toBe(200);
    expect((await fetch(`${url}/api/tags`)).status).toBe(200);
    expect((await fetch(`${url}/api/tags/${documentId}`)).status).toBe(200);
    expect((await fetch(`${url}/api/tags/no-such-document`)).status).toBe(404);
    expect((await graphqlTags(url)).status).toBe(200);
    expect((await fetch(`${url}/api/no-such-type/${documentId}`)).status).toBe(404);

    const samples = await scrape(`${url}/metrics`);
    const requests = (labels: Record<string, string>): number => total(samples, 'capi_http_requests_total', labels);
    expect(requests({ method: 'POST', route: '/api/tags', status: '201' })).toBe(1);
    expect(requests({ method: 'GET', route: '/api/tags', status: '200' })).toBe(2);
    expect(requests({ method: 'GET', route: '/api/tags/:documentId', status: '200' })).toBe(1);
    expect(requests({ method: 'GET', route: '/api/tags/:documentId', status: '404' })).toBe(1);
    expect(requests({ method: 'POST', route: '/graphql', status: '200' })).toBe(1);
    expect(requests({ method: 'GET', route: '(unmatched)', status: '404' })).toBe(1);
    // Route patterns only: no document id, no query string ever becomes a label.
    const routes = new Set(samples.filter((s) => s.name === 'capi_http_requests_total').map((s) => s.labels.route));
    for (const route of routes) expect(route).not.toMatch(new RegExp(`${documentId}|no-such|\\?|filters`));
    // The histogram saw the same requests, each in a bucket.
    expect(total(samples, 'capi_http_request_duration_seconds_count', { route: '/api/tags', status: '200' })).toBe(2);
    expect(total(samples, 'capi_http_request_duration_seconds_bucket', { route: '/api/tags', status: '200', le: '+Inf' })).toBe(2);
    expect(total(samples, 'capi_http_request_duration_seconds_sum', { route: '/api/tags', status: '200' })).toBeGreaterThan(0);
    // Node.js and process metrics come along.
    expect(total(samples, 'process_cpu_seconds_total')).toBeGreaterThan(0);
  });

  it('reports the webhook backlog: a delivery in flight is pending, one given up is failed', async () => {
    const url = server!.url;
    const backlog = async (): Promise<{ pending: number; failed: number }> => {
      const samples = await scrape(`${url}/metrics`);
      return {
        pending: total(samples, 'capi_webhook_deliveries', { webhook: 'indexer', state: 'pending' }),
        failed: total(samples, 'capi_webhook_deliveries', { webhook: 'indexer', state: 'failed' }),
      };
    };
    // The earlier tests' writes queued deliveries (the tag, and whatever else start-up created):
    // one in flight, held by the receiver, the others waiting behind it (one at a time per endpoint).
    await until('the first delivery', () => (held.length >= 1 ? true : undefined));
    const queued = await backlog();
    expect(queued.failed).toBe(0);
    expect(queued.pending).toBeGreaterThanOrEqual(1);
    // Each answer of 500 gives its delivery up (one attempt): one by one, pending becomes failed.
    for (let answered = 1; answered <= queued.pending; answered++) {
      await until(`delivery ${answered}`, () => (held.length >= answered ? true : undefined));
      held[answered - 1]!.writeHead(500).end();
      const now = await until(`delivery ${answered} given up`, async () => {
        const counts = await backlog();
        return counts.failed === answered ? counts : undefined;
      });
      expect(now).toEqual({ pending: queued.pending - answered, failed: answered });
    }
    expect(held).toHaveLength(queued.pending);
  });

  it("counts every SQL statement: a scrape's increase is the requests' X-Query-Count plus its own", async () => {
    const url = server!.url;
    const before = total(await scrape(`${url}/metrics`), 'capi_db_statements_total');
    let counted = 0;
    for (const path of ['/api/tags', '/api/tags?populate=*', '/api/tags?pagination[pageSize]=1']) {
      const answer = await fetch(`${url}${path}`);
      expect(answer.status).toBe(200);
      counted += Number(answer.headers.get('x-query-count'));
    }
    const graphql = await graphqlTags(url);
    counted += Number(graphql.headers.get('x-query-count'));
    expect(counted).toBeGreaterThanOrEqual(4);
    const after = await scrape(`${url}/metrics`);
    // The scrape before counted itself only after its counters were read: its backlog statement is here.
    expect(total(after, 'capi_db_statements_total') - before).toBe(counted + 1);
    expect(total(after, 'capi_db_statements_total', { kind: 'query', outcome: 'ok' })).toBeGreaterThan(0);
    expect(total(after, 'capi_db_statement_duration_seconds_count')).toBeGreaterThanOrEqual(before + counted);
  });

  it('reports the pool: its size and, between requests, every open connection idle', async () => {
    const samples = await scrape(`${server!.url}/metrics`);
    const size = database === 'sqlite' ? 1 : 10;
    expect(total(samples, 'capi_db_pool_max')).toBe(size);
    expect(total(samples, 'capi_db_pool_waiting')).toBe(0);
    expect(total(samples, 'capi_db_pool_connections', { state: 'in_use' })).toBe(0);
    expect(total(samples, 'capi_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(1);
  });
});

/** The OTLP/HTTP receiver: the JSON export requests it was sent, and the content types of all. */
interface Collector {
  readonly port: number;
  readonly server: Server;
  readonly exports: unknown[];
  readonly contentTypes: string[];
}

async function collector(): Promise<Collector> {
  const exports: unknown[] = [];
  const contentTypes: string[] = [];
  const { server, port } = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        contentTypes.push(req.headers['content-type'] ?? '');
        if (req.headers['content-type'] === 'application/json') exports.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return { port, server, exports, contentTypes };
}

interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: readonly { key: string; value: { stringValue?: string; intValue?: number | string } }[];
}

function spansOf(exports: readonly unknown[]): OtlpSpan[] {
  const body = exports as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] }[];
  return body.flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
}

function serviceNames(exports: readonly unknown[]): string[] {
  const body = exports as { resourceSpans: { resource: { attributes: OtlpSpan['attributes'] } }[] }[];
  return body.flatMap((e) => e.resourceSpans.map((r) => r.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? ''));
}

function attribute(span: OtlpSpan, key: string): string | number | undefined {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
}

/** Records which prom-client and OpenTelemetry modules the server imports (Node's module hooks). */
function importProbe(dir: string): { options: string; imported: () => string[] } {
  const log = join(dir, 'imports.log');
  writeFileSync(log, '');
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';\nexport async function resolve(specifier, context, next) {\n  if (/^(prom-client|@opentelemetry\\/)/.test(specifier)) appendFileSync(${JSON.stringify(log)}, specifier + '\\n');\n  return next(specifier, context);\n}\n`,
  );
  writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n`);
  return {
    options: `--import ${join(dir, 'register.mjs')}`,
    imported: () => [
      ...new Set(
        readFileSync(log, 'utf8')
          .split('\n')
          .filter((line) => line !== ''),
      ),
    ],
  };
}

describe('traces, and what is loaded when off, on sqlite', () => {
  const space = scratch('traces');
  let project: string;
  let otlp: Collector;
  const servers: RunningServer[] = [];
  const start = async (env: NodeJS.ProcessEnv): Promise<RunningServer> => {
    const server = await startServer(project, { DATABASE_URL: `file:${join(space.dir, 'data.db')}`, CAPI_QUERY_COUNT: '1', LOG_LEVEL: 'info', ...env });
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    project = await generate(space.dir, 'sqlite');
    otlp = await collector();
  }, 240_000);

  afterAll(async () => {
    for (const server of servers) await server.kill();
    await close(otlp?.server);
    space.dispose();
  });

  it('with metrics and OTEL_* unset, neither prom-client nor OpenTelemetry is imported, and nothing is exported', async () => {
    setMetrics(project, undefined);
    const probe = importProbe(space.dir);
    const server = await start({ NODE_OPTIONS: probe.options });
    expect((await fetch(`${server.url}/api/tags`, { headers: { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' } })).status).toBe(200);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    await server.stop();
    expect(probe.imported()).toEqual([]);
    expect(otlp.contentTypes).toEqual([]);
    expect(server.output()).not.toContain('traceId');

    // The probe sees them when they are on: its empty list above is not a blind spot.
    setMetrics(project, { enabled: true });
    const on = await start({ NODE_OPTIONS: probe.options, OTEL_TRACES_EXPORTER: 'console', OTEL_BSP_SCHEDULE_DELAY: '60000' });
    await on.stop();
    expect(probe.imported()).toEqual(expect.arrayContaining(['prom-client', '@opentelemetry/api', '@opentelemetry/sdk-trace-node']));
    setMetrics(project, undefined);
  });

  it('sends a span per request, child of the caller’s traceparent, with a span per SQL statement, and logs the trace id', async () => {
    const server = await start({
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlp.port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'capi-under-test',
      OTEL_BSP_SCHEDULE_DELAY: '50',
    });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    const traceparent = (id: string): string => `00-${traceId.slice(0, 28)}${id}-${parent}-01`;
    // Three request paths: a direct REST read (with a filter value that must not reach a span), an Express write, a GraphQL POST.
    const read = await fetch(`${server.url}/api/tags?filters[name][$eq]=secret-value`, { headers: { traceparent: traceparent('0001') } });
    const write = await fetch(`${server.url}/api/tags`, {
      method: 'POST',
      headers: { traceparent: traceparent('0002'), 'content-type': 'application/json' },
      body: JSON.stringify({ data: { name: 'traced' } }),
    });
    const graphql = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { traceparent: traceparent('0003'), 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ tags { name } }' }),
    });
    expect([read.status, write.status, graphql.status]).toEqual([200, 201, 200]);
    const cases = [
      { id: traceparent('0001').slice(3, 35), name: 'GET /api/tags', queries: Number(read.headers.get('x-query-count')) },
      { id: traceparent('0002').slice(3, 35), name: 'POST /api/tags', queries: Number(write.headers.get('x-query-count')) },
      { id: traceparent('0003').slice(3, 35), name: 'POST /graphql', queries: Number(graphql.headers.get('x-query-count')) },
    ];
    for (const expected of cases) {
      const request = await until(`the span of ${expected.name}`, () => spansOf(otlp.exports).find((s) => s.traceId === expected.id && s.kind === 2));
      expect(request).toMatchObject({ name: expected.name, parentSpanId: parent });
      expect(attribute(request, 'http.response.status_code')).toBe(expected.name === 'POST /api/tags' ? 201 : 200);
      expect(attribute(request, 'http.route')).toBe(expected.name.split(' ')[1]);
      const statements = await until(`the statements of ${expected.name}`, () => {
        const found = spansOf(otlp.exports).filter((s) => s.traceId === expected.id && s.kind === 3);
        return found.length >= expected.queries ? found : undefined;
      });
      expect(expected.queries).toBeGreaterThan(0);
      expect(statements).toHaveLength(expected.queries);
      for (const statement of statements) {
        expect(statement.parentSpanId).toBe(request.spanId);
        expect(attribute(statement, 'db.system')).toBe('sqlite');
        expect(String(attribute(statement, 'db.query.text'))).toMatch(/^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i);
        expect(String(attribute(statement, 'db.query.text'))).not.toContain('secret-value');
      }
      // The request's log line names its trace and span.
      const line = server
        .output()
        .split('\n')
        .find((l) => l.includes(`"traceId":"${expected.id}"`));
      expect(line).toBeDefined();
      expect(JSON.parse(line!)).toMatchObject({ traceId: expected.id, spanId: request.spanId, req: { method: expected.name.split(' ')[0], path: expected.name.split(' ')[1] } });
    }
    expect(new Set(serviceNames(otlp.exports))).toEqual(new Set(['capi-under-test']));
    // Without a traceparent a request starts a trace of its own.
    expect((await fetch(`${server.url}/api/tags`)).status).toBe(200);
    await until('a root span', () => spansOf(otlp.exports).find((s) => s.kind === 2 && s.parentSpanId === undefined && s.name === 'GET /api/tags'));
    await server.stop();
  });

  it('exports protobuf by default (OTEL_EXPORTER_OTLP_PROTOCOL unset)', async () => {
    const before = otlp.contentTypes.length;
    const server = await start({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlp.port}`, OTEL_BSP_SCHEDULE_DELAY: '50' });
    expect((await fetch(`${server.url}/api/tags`)).status).toBe(200);
    await until('a protobuf export', () => (otlp.contentTypes.length > before ? true : undefined));
    expect(otlp.contentTypes.slice(before)).toContain('application/x-protobuf');
    await server.stop();
  });
});

describe('metrics under --workers 2 on sqlite', () => {
  const space = scratch('metrics-workers');
  let project: string;
  let primary: ChildProcess | undefined;
  let output = '';
  let url: string;

  const startCluster = async (metrics: Record<string, unknown>, ready: string): Promise<void> => {
    setMetrics(project, metrics);
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    output = '';
    primary = spawn(process.execPath, ['dist/main.js', '--workers', '2'], {
      cwd: project,
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATABASE_URL: `file:${join(space.dir, 'data.db')}`, JWT_SECRET: testJwtSecret, METRICS_TOKEN: TOKEN, LOG_LEVEL: 'info' },
    });
    primary.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    primary.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    await until('two workers', () => (output.includes('2 server workers listening') && output.includes(ready) ? true : undefined), 60_000).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${output}`);
    });
  };
  const stopCluster = async (): Promise<void> => {
    if (primary === undefined || primary.exitCode !== null) return;
    const exited = new Promise((resolve) => primary!.once('exit', resolve));
    primary.kill('SIGTERM');
    await exited;
  };

  /** `count` health checks on new connections (the cluster hands them to the workers in turn); the pids that answered. */
  const healthChecks = async (count: number): Promise<Set<number>> => {
    const pids = new Set<number>();
    for (let i = 0; i < count; i++) {
      const health = (await (await fetch(`${url}/_health`, { headers: { connection: 'close' } })).json()) as { worker?: { pid: number } };
      if (health.worker !== undefined) pids.add(health.worker.pid);
    }
    return pids;
  };
  const healthCount = (samples: readonly Sample[]): number => total(samples, 'capi_http_requests_total', { route: '/_health', status: '200' });

  beforeAll(async () => {
    project = await generate(space.dir, 'sqlite');
  }, 240_000);

  afterAll(async () => {
    await stopCluster();
    space.dispose();
  });

  it("a scrape reaching either worker on the API port is every worker's, summed by the primary", async () => {
    await startCluster({ enabled: true }, 'server workers listening');
    const scrapeApi = (): Promise<Sample[]> => scrape(`${url}/metrics`);
    const before = healthCount(await scrapeApi());
    const requests = 12;
    expect((await healthChecks(requests)).size).toBe(2);
    // Two scrapes, on new connections: whichever worker each reaches, both see every request.
    const [first, second] = [await scrapeApi(), await scrapeApi()];
    expect(healthCount(first) - before).toBe(requests);
    expect(healthCount(second) - before).toBe(requests);
    // Each worker's pool is counted: two SQLite connections in all.
    expect(total(first, 'capi_db_pool_max')).toBe(2);
    await stopCluster();
  });

  it('with a metrics port of its own, the primary serves the sum there and the API port does not', async () => {
    const metricsPort = await freePort();
    const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    await startCluster({ enabled: true, port: metricsPort }, 'metrics of all workers');
    const before = healthCount(await scrape(metricsUrl));
    const requests = 12;
    expect((await healthChecks(requests)).size).toBe(2);
    expect(healthCount(await scrape(metricsUrl)) - before).toBe(requests);
    expect((await fetch(`${url}/metrics`, { headers: { connection: 'close' } })).status).toBe(404);
    expect((await fetch(metricsUrl)).status).toBe(401);
    await stopCluster();
  });
});
