/**
 * Webhooks of config/webhooks.json through generated servers, on SQLite and PostgreSQL, against a
 * real HTTP receiver: Strapi's payload and headers with an HMAC signature, retries when the
 * receiver answers 500 or is down, nothing lost when the server is killed (-9) between commit and
 * delivery, and each delivery sent once even with two server processes on one database.
 */
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareProject, startReferenceServer, type HarnessOptions } from '../conformance/harness.ts';
import { freePort, type RunningServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';
import { request } from './support.ts';

const SECRET = 'webhook-test-secret';

interface Received {
  /** What the receiver answered. */
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly raw: string;
  /** When the request arrived (Date.now()). */
  readonly at: number;
  readonly body: { event: string; createdAt: string; model?: string; uid?: string; entry?: Record<string, unknown> | null; media?: Record<string, unknown> };
}

/** A webhook endpoint: answers what `answer` says for each request (a status, or `hang` to never answer). */
class Receiver {
  readonly received: Received[] = [];
  answer: (body: Received['body']) => number | 'hang' = () => 200;
  /** How long each answer takes: long enough for other processes to poll while a delivery is in flight. */
  delayMs = 0;
  private server: Server | undefined;
  private readonly hanging = new Set<import('node:http').ServerResponse>();
  constructor(readonly port: number) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        const body = JSON.parse(raw) as Received['body'];
        const answer = this.answer(body);
        if (answer === 'hang') {
          this.hanging.add(res);
          return;
        }
        this.received.push({ status: answer, headers: req.headers, raw, body, at: Date.now() });
        setTimeout(() => {
          res.statusCode = answer;
          res.end();
        }, this.delayMs);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', () => resolve()));
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server === undefined ? resolve() : this.server.close(() => resolve())));
    this.server = undefined;
  }

  get hangingCount(): number {
    return this.hanging.size;
  }

  /** Requests about a document that the receiver accepted (2xx). */
  of(documentId: string, event?: string): Received[] {
    return this.attempts(documentId, event).filter((r) => r.status < 300);
  }

  /** Every request about a document, whatever the answer. */
  attempts(documentId: string, event?: string): Received[] {
    return this.received.filter((r) => r.body.entry?.documentId === documentId && (event === undefined || r.body.event === event));
  }
}

/** Waits until `condition` holds (deliveries are asynchronous); fails after a generous bound. */
async function until(condition: () => boolean, what: string, context?: () => string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}${context === undefined ? '' : `\n${context()}`}`);
}

describe.each(clients)('webhooks on %s', (database) => {
  let pg: TestDatabase | undefined;
  let options: HarnessOptions;
  let project: string;
  let receiver: Receiver;
  const servers: RunningServer[] = [];
  // The request timeout is generous: on a loaded machine an answer can take over a second, and a
  // timed-out answer is a failed attempt that would be sent again (an extra delivery the tests
  // would count). It also bounds how long a killed sender's lease lasts (timeout + 1 s).
  const env = { CAPI_WEBHOOK_BACKOFF_MS: '200', CAPI_WEBHOOK_POLL_MS: '100', CAPI_WEBHOOK_TIMEOUT_MS: '4000', WEBHOOK_SECRET: SECRET, LOG_LEVEL: 'info' };
  const start = async (): Promise<RunningServer> => {
    const server = await startReferenceServer(project, options, env);
    servers.push(server);
    return server;
  };
  const createTag = async (server: RunningServer, name: string): Promise<string> => {
    const created = await request(server.url, 'POST', '/api/tags', { data: { name } });
    expect(created.status).toBe(201);
    return created.body.data.documentId as string;
  };

  beforeAll(async () => {
    pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_webhooks');
    options = { database, workDir: join(repoRoot, 'tmp', `webhooks-${database}-${process.pid}`), ...(pg === undefined ? {} : { databaseUrl: pg.url }) };
    project = await prepareProject(options);
    receiver = new Receiver(await freePort());
    await receiver.start();
    const webhooks = [
      {
        name: 'indexer',
        url: `http://127.0.0.1:${receiver.port}/hook`,
        headers: { Authorization: 'Bearer indexer-token' },
        events: ['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'media.create', 'media.update', 'media.delete'],
        secretEnv: 'WEBHOOK_SECRET',
      },
    ];
    writeFileSync(join(project, 'config', 'webhooks.json'), `${JSON.stringify(webhooks, null, 2)}\n`);
  }, 240_000);
  afterAll(async () => {
    for (const server of servers) await server.kill();
    await receiver?.stop();
    await pg?.drop();
  });

  it("sends Strapi's payload, headers and an HMAC signature for each event", async () => {
    const server = await start();
    const tag = await createTag(server, 'hello');
    await until(() => receiver.of(tag, 'entry.create').length === 1, 'entry.create');
    const [delivery] = receiver.of(tag, 'entry.create');
    expect(delivery!.body).toEqual({
      event: 'entry.create',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      model: 'tag',
      uid: 'api::tag.tag',
      entry: expect.objectContaining({ documentId: tag, name: 'hello' }),
    });
    expect(delivery!.headers.authorization).toBe('Bearer indexer-token');
    expect(delivery!.headers['x-strapi-event']).toBe('entry.create');
    expect(delivery!.headers['x-capi-signature']).toBe(`sha256=${createHmac('sha256', SECRET).update(delivery!.raw).digest('hex')}`);

    expect((await request(server.url, 'PUT', `/api/tags/${tag}`, { data: { name: 'hello again' } })).status).toBe(200);
    await until(() => receiver.of(tag, 'entry.update').length === 1, 'entry.update');
    expect(receiver.of(tag, 'entry.update')[0]!.body.entry).toMatchObject({ name: 'hello again' });

    const article = await request(server.url, 'POST', '/api/articles', { data: { title: 'Webhook news' } });
    expect(article.status).toBe(201);
    const articleId = article.body.data.documentId as string;
    await until(() => receiver.of(articleId).length === 2, 'entry.create and entry.publish');
    expect(receiver.of(articleId).map((r) => r.body.event)).toEqual(['entry.create', 'entry.publish']);
    expect(receiver.of(articleId, 'entry.publish')[0]!.body.entry).toMatchObject({ title: 'Webhook news', publishedAt: expect.any(String) });

    const product = await request(server.url, 'POST', '/api/products', { data: { name: 'Lamp', slug: 'lamp', internalCode: 'X-1', secret: 'hunter22' } });
    expect(product.status).toBe(201);
    const productId = product.body.data.documentId as string;
    await until(() => receiver.of(productId, 'entry.create').length === 1, 'the product');
    const productEntry = receiver.of(productId, 'entry.create')[0]!.body.entry!;
    expect(productEntry).toMatchObject({ name: 'Lamp', slug: 'lamp' });
    expect(productEntry).not.toHaveProperty('internalCode');
    expect(productEntry).not.toHaveProperty('secret');
    expect(receiver.of(productId, 'entry.create')[0]!.raw).not.toContain('hunter22');

    expect((await request(server.url, 'DELETE', `/api/tags/${tag}`)).status).toBe(204);
    await until(() => receiver.of(tag, 'entry.delete').length === 1, 'entry.delete');
    expect(receiver.of(tag, 'entry.delete')[0]!.body.entry).toMatchObject({ documentId: tag, name: 'hello again' });
    await server.stop();
  });

  it('sends one endpoint its events one at a time, in the order they were written', async () => {
    const server = await start();
    receiver.delayMs = 300;
    try {
      const article = await request(server.url, 'POST', '/api/articles', { data: { title: 'In order' } });
      expect(article.status).toBe(201);
      const articleId = article.body.data.documentId as string;
      await until(() => receiver.of(articleId).length === 2, 'entry.create and entry.publish');
      const [created, published] = receiver.of(articleId);
      expect([created!.body.event, published!.body.event]).toEqual(['entry.create', 'entry.publish']);
      // The second request is sent only once the first was answered, 300 ms after it arrived.
      expect(published!.at - created!.at).toBeGreaterThanOrEqual(250);
    } finally {
      receiver.delayMs = 0;
    }
  });

  it("sends Strapi's media events for uploads, info changes and deletes", async () => {
    const server = await start();
    const form = new FormData();
    form.append('files', new Blob(['plain text'], { type: 'text/plain' }), 'note.txt');
    const uploaded = await fetch(`${server.url}/api/upload`, { method: 'POST', body: form });
    expect(uploaded.status).toBe(201);
    const [file] = (await uploaded.json()) as { id: number; documentId: string }[];
    const media = (event: string) => receiver.received.filter((r) => r.body.event === event && r.body.media?.documentId === file!.documentId);
    await until(() => media('media.create').length === 1, 'media.create');
    expect(media('media.create')[0]!.body).toEqual({
      event: 'media.create',
      createdAt: expect.any(String),
      media: expect.objectContaining({ id: file!.id, name: 'note.txt', url: expect.stringMatching(/^\/uploads\//) }),
    });
    const info = new FormData();
    info.append('fileInfo', JSON.stringify({ alternativeText: 'A note' }));
    expect((await fetch(`${server.url}/api/upload?id=${file!.id}`, { method: 'POST', body: info })).status).toBe(200);
    await until(() => media('media.update').length === 1, 'media.update');
    expect(media('media.update')[0]!.body.media).toMatchObject({ alternativeText: 'A note' });
    expect((await fetch(`${server.url}/api/upload/files/${file!.id}`, { method: 'DELETE' })).status).toBe(200);
    await until(() => media('media.delete').length === 1, 'media.delete');
    await server.stop();
  });

  it('a write that fails sends nothing', async () => {
    const server = await start();
    const before = receiver.received.length;
    const refused = await request(server.url, 'POST', '/api/tags', { data: { name: 'x', weight: 'not a number' } });
    expect(refused.status).toBe(400);
    const marker = await createTag(server, 'marker');
    await until(() => receiver.of(marker).length === 1, 'the marker');
    expect(receiver.received.length).toBe(before + 1);
    await server.stop();
  });

  it('retries while the receiver answers 500, then delivers once', async () => {
    const server = await start();
    let failures = 0;
    receiver.answer = (body) => (body.entry?.name === 'flaky' && failures++ < 2 ? 500 : 200);
    const tag = await createTag(server, 'flaky');
    await until(() => receiver.of(tag, 'entry.create').length === 1, 'the retried delivery');
    expect(receiver.attempts(tag, 'entry.create').map((r) => r.status)).toEqual([500, 500, 200]);
    expect(server.output()).toMatch(/"attempt":1,.*"status":500.*webhook delivery failed, will retry/);
    // The receiver has the delivery before the sender has logged it: wait for the line. Its attempt
    // number is the count the receiver saw; on a loaded machine the 200 may come after the
    // sender's timeout, and then the delivery is (rightly) sent again, so the count can be above 3.
    const delivery = /"delivery":(\d+),"attempt":1,.*webhook delivery failed, will retry/.exec(server.output())?.[1];
    expect(delivery).toBeDefined();
    const delivered = new RegExp(`"delivery":${delivery},"attempt":(\\d+),"status":200.*webhook delivered`);
    await until(
      () => delivered.test(server.output()),
      'the delivered log line',
      () => server.output().slice(-4000),
    );
    expect(Number(delivered.exec(server.output())?.[1])).toBe(receiver.attempts(tag, 'entry.create').length);
    receiver.answer = () => 200;
    await server.stop();
  });

  it('keeps deliveries while the receiver is down, across a kill -9, and sends them once it is back', async () => {
    const server = await start();
    await receiver.stop();
    const tag = await createTag(server, 'while down');
    await server.kill();
    await receiver.start();
    const restarted = await start();
    await until(() => receiver.of(tag, 'entry.create').length === 1, 'the delivery after restart');
    await restarted.stop();
  });

  it('a server killed (-9) while sending: the delivery is sent again by the next process', async () => {
    const server = await start();
    let hung = false;
    receiver.answer = (body) => {
      if (body.entry?.name !== 'interrupted' || hung) return 200;
      hung = true;
      return 'hang';
    };
    const tag = await createTag(server, 'interrupted');
    await until(() => receiver.hangingCount === 1, 'the hanging request');
    await server.kill();
    const restarted = await start();
    await until(() => receiver.of(tag, 'entry.create').length === 1, 'the redelivery');
    receiver.answer = () => 200;
    await restarted.stop();
  });

  it('two server processes on one database send each delivery once', async () => {
    const [a, b] = [await start(), await start()];
    // Each answer takes several of the processes' poll intervals (100 ms): a row that was not
    // leased to the process sending it would be picked up by the other one meanwhile.
    receiver.delayMs = 400;
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await createTag(i % 2 === 0 ? a : b, `pair ${i}`));
    await until(() => ids.every((id) => receiver.of(id, 'entry.create').length >= 1), 'every delivery');
    // Both processes keep polling: give them several more rounds to send a duplicate if they could.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const id of ids) expect(receiver.of(id, 'entry.create')).toHaveLength(1);
    receiver.delayMs = 0;
    await a.stop();
    await b.stop();
  });
});
