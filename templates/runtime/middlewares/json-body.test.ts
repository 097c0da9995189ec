/**
 * The plain JSON body reader (json-body.ts) against body-parser: the same random requests (JSON
 * values with whitespace and byte-order marks around them, top-level scalars, broken JSON, invalid
 * UTF-8, empty and too large bodies, other types and charsets, chunked bodies) sent to a server
 * parsing with each must give the same body or the same error type and status. The requests the
 * reader takes never reach body-parser; the others all do.
 */
import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request, RequestHandler, Response } from 'express';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyParserChain } from './index.ts';
import { plainJsonBody } from './json-body.ts';

const LIMIT = 96;

/** What a server made of a request: the body it parsed, or the error body-parser's way. */
type Outcome = { readonly body: string } | { readonly status: unknown; readonly type: unknown };

/** body-parser as `strapi::body` chains it (JSON, then forms, then text), with the test's limit. */
function reference(): RequestHandler {
  return bodyParserChain({ jsonLimit: LIMIT, formLimit: LIMIT, textLimit: LIMIT, json: true, urlencoded: true, text: true });
}

function serve(parse: RequestHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const answer = (outcome: Outcome): void => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(outcome));
    };
    parse(req as Request, res as Response, (error?: unknown) => {
      if (error !== undefined) {
        const { status, type } = error as { status?: unknown; type?: unknown };
        // Drain what the parser left unread, as Express' error handler would before answering.
        req.resume();
        return answer({ status, type });
      }
      answer({ body: JSON.stringify((req as Request).body) ?? 'undefined' });
    });
  };
}

interface Sent {
  readonly type: string;
  readonly bytes: Buffer;
  readonly chunked: boolean;
}

async function send(server: Server, sent: Sent): Promise<Outcome> {
  const { port } = server.address() as AddressInfo;
  const headers: Record<string, string | number> = { 'content-type': sent.type };
  if (sent.chunked) headers['transfer-encoding'] = 'chunked';
  else headers['content-length'] = sent.bytes.length;
  const req = request({ port, method: 'POST', path: '/', headers });
  req.end(sent.bytes);
  const [res] = (await once(req, 'response')) as [IncomingMessage];
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Outcome;
}

const whitespace = fc.array(fc.constantFrom(' ', '\t', '\n', '\r'), { maxLength: 3 }).map((chars) => chars.join(''));
const bom = fc.constantFrom('', '\ufeff');
const text: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(bom, whitespace, fc.jsonValue({ maxDepth: 3 }), whitespace).map(([mark, before, value, after]) => `${mark}${before}${JSON.stringify(value) ?? 'null'}${after}`),
  fc.tuple(whitespace, fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 12 }), { maxKeys: 4 })).map(([before, value]) => `${before}${JSON.stringify(value)}`),
  fc.constantFrom('', ' ', '\ufeff', 'null', '"x"', '12', 'true', '{"a":1} x', '{"a":', '[1,]', '{"__proto__":{"x":1}}', '\ufeff\ufeff{}', ' \ufeff{}'),
  fc.string({ maxLength: 24 }),
);
const bytes: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 4, arbitrary: text.map((value) => Buffer.from(value, 'utf8')) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 40 }).map((array) => Buffer.from(array)) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('{"a":"', '["'), fc.uint8Array({ maxLength: 8 })).map(([head, tail]) => Buffer.concat([Buffer.from(head), Buffer.from(tail), Buffer.from('"]')])) },
);
const sentArb: fc.Arbitrary<Sent> = fc.record({
  type: fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/json;charset=UTF-8',
    'application/json; charset=utf-16',
    'application/json; charset=latin1',
    'application/vnd.api+json',
    'text/plain',
    'application/x-www-form-urlencoded',
  ),
  bytes,
  chunked: fc.boolean(),
});

/** Whether json-body.ts takes the request itself (else it hands it to body-parser). */
function plain(sent: Sent): boolean {
  const type = sent.type.toLowerCase();
  return (
    !sent.chunked && sent.bytes.length > 0 && sent.bytes.length <= LIMIT && (type === 'application/json' || type === 'application/json; charset=utf-8' || type === 'application/json;charset=utf-8')
  );
}

describe('the plain JSON body reader against body-parser', () => {
  let fast: Server;
  let slow: Server;
  let handedOver = 0;

  beforeAll(async () => {
    const fallback = reference();
    const counted: RequestHandler = (req, res, next) => {
      handedOver += 1;
      fallback(req, res, next);
    };
    fast = createServer(serve(plainJsonBody(LIMIT, counted)));
    slow = createServer(serve(reference()));
    for (const server of [fast, slow]) {
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
    }
  });
  afterAll(async () => {
    for (const server of [fast, slow]) server.close();
  });

  it('gives the same body or the same error for random requests, and reads the plain ones itself', async () => {
    let taken = 0;
    await fc.assert(
      fc.asyncProperty(sentArb, async (sent) => {
        const before = handedOver;
        const [mine, theirs] = await Promise.all([send(fast, sent), send(slow, sent)]);
        expect(mine).toEqual(theirs);
        expect(handedOver - before).toBe(plain(sent) ? 0 : 1);
        if (plain(sent)) taken += 1;
      }),
      { numRuns: 400, seed: 20261129 },
    );
    expect(taken).toBeGreaterThan(80);
  });

  it('refuses what body-parser refuses, with its error types', async () => {
    const cases: readonly [string, unknown][] = [
      ['"text"', 'entity.parse.failed'],
      ['{"a":', 'entity.parse.failed'],
      [' ', 'entity.parse.failed'],
      ['x'.repeat(LIMIT + 1), 'entity.too.large'],
    ];
    for (const [body, type] of cases) {
      const outcome = await send(fast, { type: 'application/json', bytes: Buffer.from(body), chunked: false });
      expect(outcome).toMatchObject({ type });
    }
    expect(await send(fast, { type: 'application/json', bytes: Buffer.from('\ufeff{"a":[1,2]}'), chunked: false })).toEqual({ body: '{"a":[1,2]}' });
  });
});
