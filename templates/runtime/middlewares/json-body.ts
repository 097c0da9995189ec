/**
 * `strapi::body`'s JSON parser for the plain request, read without body-parser's per-request
 * machinery: type-is and content-type parsing, raw-body's stream handling with an iconv-lite
 * decoder, its debug calls. Written by hand because that machinery was 12-19% of a small GraphQL
 * POST's CPU (A/B, docs/benchmarks.md), and a plain JSON body needs none of it.
 *
 * Only a request whose headers settle everything takes it: a Content-Type of exactly
 * `application/json` (or with `charset=utf-8`), no Content-Encoding, and a Content-Length above 0
 * and within the limit. Every other request (another type or charset, a compressed or chunked
 * body, an empty or too large one, a body already read) goes to body-parser as before. For the
 * requests it takes, it answers what body-parser answers (json-body.test.ts sends the same random
 * requests to both): the bytes decoded as UTF-8 with a leading byte-order mark dropped, a body
 * whose first character is not `{` or `[` refused (body-parser's strict mode), and failures as
 * errors with body-parser's `type`, which errors.ts turns into Strapi's envelope.
 */
import type { RequestHandler } from 'express';

const PLAIN_TYPES: ReadonlySet<string> = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);

/** An error as body-parser reports it: errors.ts reads `type` (and `status`, `expose`). */
class BodyError extends Error {
  readonly expose = true;

  constructor(
    message: string,
    readonly status: number,
    readonly type: 'entity.parse.failed' | 'request.aborted',
  ) {
    super(message);
    this.name = 'BodyError';
  }
}

/** `fallback` (body-parser's chain) for every request this parser does not take. */
export function plainJsonBody(limit: number, fallback: RequestHandler): RequestHandler {
  return (req, res, next) => {
    if (!isPlainJson(req.headers, limit) || req.complete || req.readableEnded) return fallback(req, res, next);
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (error: Error | undefined, body?: unknown): void => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAborted);
      req.off('close', onAborted);
      if (error !== undefined) return next(error);
      req.body = body;
      next();
    };
    const onData = (chunk: Buffer): void => void chunks.push(chunk);
    const onEnd = (): void => {
      const parsed = parsePlainJson(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
      settle(parsed instanceof BodyError ? parsed : undefined, parsed);
    };
    // raw-body's answer to a request that ends before its body does.
    const onAborted = (): void => settle(new BodyError('request aborted', 400, 'request.aborted'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onAborted);
    req.on('close', onAborted);
  };
}

/** Whether the headers make the request a plain JSON one this parser takes (Node's parser holds the body to its Content-Length). */
function isPlainJson(headers: { readonly [name: string]: string | string[] | undefined }, limit: number): boolean {
  const type = headers['content-type'];
  if (type === undefined || Array.isArray(type) || !PLAIN_TYPES.has(type.toLowerCase())) return false;
  if (headers['content-encoding'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
  const declared = headers['content-length'];
  if (typeof declared !== 'string' || !/^[0-9]{1,15}$/.test(declared)) return false;
  const length = Number(declared);
  return length > 0 && length <= limit;
}

/** body-parser's strict JSON parse of the decoded body, or its error. */
function parsePlainJson(bytes: Buffer): unknown {
  let text = bytes.toString('utf8');
  // iconv-lite, which body-parser decodes with, drops a leading byte-order mark.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.length === 0) return {};
  const first = firstNonWhitespace(text);
  if (first !== '{' && first !== '[') return new BodyError('Unexpected token in JSON', 400, 'entity.parse.failed');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return new BodyError(error instanceof Error ? error.message : 'Invalid JSON', 400, 'entity.parse.failed');
  }
}

/** The first character that is not JSON whitespace (space, tab, line feed, carriage return). */
function firstNonWhitespace(text: string): string {
  for (const char of text) if (char !== ' ' && char !== '\t' && char !== '\n' && char !== '\r') return char;
  return '';
}
