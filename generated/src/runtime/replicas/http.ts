/**
 * Read-your-writes across requests and processes. A response to a request that wrote carries
 * the primary's log position after the write, in the `X-Capi-Read-After` header and the
 * `capi_read_after` cookie; a request that brings it back (either one; the newer wins) reads
 * only from a replica that has replayed that far, else from the primary, whichever process of
 * the deployment it reaches. The process also remembers each client's last write itself
 * (clients told apart by their Authorization header, else their address), for clients that keep
 * neither header nor cookie and come back to the same process.
 *
 * A position is only worth keeping until every replica still serving has replayed it: one more
 * than `maxLagMs` behind is left out. So the cookie and the remembered positions last maxLagMs
 * plus two check intervals. A value that is not a position is ignored; a forged one from the
 * future sends that client's own reads to the primary, and nothing else.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { ReplicationSupport } from '../dialect/types.ts';
import { readScopes } from './scope.ts';

export const READ_AFTER_HEADER = 'X-Capi-Read-After';
export const READ_AFTER_COOKIE = 'capi_read_after';

/** Clients remembered at most; the oldest are forgotten first (they only lose the in-process shortcut). */
const maxRemembered = 10_000;

/** The last write position of each recent client of this process. */
class RecentWrites {
  readonly #positions = new Map<string, { readonly position: bigint; readonly until: number }>();

  constructor(private readonly keepMs: number) {}

  get(client: string, now: number): bigint | undefined {
    const entry = this.#positions.get(client);
    if (entry === undefined) return undefined;
    if (entry.until > now) return entry.position;
    this.#positions.delete(client);
    return undefined;
  }

  set(client: string, position: bigint, now: number): void {
    // Deleted first so that the entry moves to the end of the Map's order: the oldest come first.
    this.#positions.delete(client);
    this.#positions.set(client, { position, until: now + this.keepMs });
    if (this.#positions.size > maxRemembered) this.#positions.delete(this.#positions.keys().next().value as string);
  }
}

export interface ReadAfterOptions {
  readonly replication: ReplicationSupport;
  /** How long a position matters: maxLagMs plus two check intervals. */
  readonly keepMs: number;
}

/** The middleware that opens each request's read scope with its client's position and hands out the new one after a write. */
export function readYourWrites(options: ReadAfterOptions): RequestHandler {
  const { replication, keepMs } = options;
  const recent = new RecentWrites(keepMs);
  const cookieAttributes = `; Path=/; Max-Age=${Math.ceil(keepMs / 1000)}; HttpOnly; SameSite=Lax`;
  const parse = (text: string | undefined): bigint | undefined => (text === undefined ? undefined : replication.parsePosition(text.trim()));
  return (req, res, next) => {
    const client = clientKey(req);
    const floor = newest([parse(headerValue(req.headers['x-capi-read-after'])), parse(cookieValue(req.headers.cookie)), recent.get(client, Date.now())]);
    const wrote = (text: string): void => {
      const position = replication.parsePosition(text);
      if (position === undefined) return;
      recent.set(client, position, Date.now());
      if (!res.headersSent) announce(res, text, cookieAttributes);
    };
    readScopes.run({ floor, target: undefined, wrote }, () => next());
  };
}

function announce(res: ServerResponse, text: string, cookieAttributes: string): void {
  res.setHeader(READ_AFTER_HEADER, text);
  const cookie = `${READ_AFTER_COOKIE}=${text}${cookieAttributes}`;
  const set = res.getHeader('set-cookie');
  const others = set === undefined ? [] : (Array.isArray(set) ? set : [String(set)]).filter((line) => !line.startsWith(`${READ_AFTER_COOKIE}=`));
  res.setHeader('Set-Cookie', [...others, cookie]);
}

/** Who the client is, for the in-process memory: a hash of its credentials (never kept as such), else its address. */
function clientKey(req: IncomingMessage & { ip?: string | undefined }): string {
  const authorization = req.headers.authorization;
  if (authorization !== undefined && authorization !== '') return `auth:${createHash('sha256').update(authorization).digest('base64url')}`;
  return `ip:${req.ip ?? req.socket.remoteAddress ?? ''}`;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

const cookiePattern = new RegExp(`(?:^|;\\s*)${READ_AFTER_COOKIE}=([^;]*)`);

function cookieValue(header: string | undefined): string | undefined {
  return header === undefined ? undefined : cookiePattern.exec(header)?.[1];
}

function newest(positions: readonly (bigint | undefined)[]): bigint | undefined {
  let best: bigint | undefined;
  for (const position of positions) if (position !== undefined && (best === undefined || position > best)) best = position;
  return best;
}
