/**
 * Sends the outbox's deliveries after commit. A process claims due rows in a short transaction
 * (PostgreSQL: `FOR UPDATE SKIP LOCKED`, so that two server processes never claim the same row;
 * SQLite's write transactions already run one at a time) by moving their `next_attempt_at` past
 * the time their request may take, counting the requests queued before it for the same endpoint
 * (an endpoint gets its deliveries one at a time, in write order): that lease is what keeps the other processes away while it sends, and what
 * hands the row to another process when this one dies mid-send. Answers other than 2xx, and
 * unreachable endpoints, are retried with exponential backoff up to `maxAttempts`; every result
 * is logged and kept on the row (`attempts`, `last_status`, `last_error`). Delivered rows are
 * deleted once older than `retentionMs`; failed ones stay for an operator to look at.
 */
import { createHmac } from 'node:crypto';
import type { Database, Queryable } from '../database.ts';
import { fragment, inIds, joinFragments } from '../engine/sql.ts';
import type { Logger } from '../logger.ts';
import type { WebhookConfig } from './config.ts';
import { OUTBOX_TABLE } from './outbox.ts';

/** An outgoing request made of an outbox row. */
export interface DeliveryRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
}

/**
 * Where an outbox row goes, by its `webhook` column: a webhook of config/webhooks.json, or the
 * CDN purge of config/cache.json (cache/purge.ts).
 */
export interface DeliveryTarget {
  readonly name: string;
  request(row: { readonly event: string; readonly payload: string }): DeliveryRequest;
}

/** A webhook's request: Strapi's JSON body by POST, signed when the webhook has a secret. */
export function webhookTarget(webhook: WebhookConfig): DeliveryTarget {
  return {
    name: webhook.name,
    request: (row) => {
      const headers: Record<string, string> = { ...webhook.headers, 'content-type': 'application/json', 'x-strapi-event': row.event };
      if (webhook.secret !== null) headers['x-capi-signature'] = `sha256=${createHmac('sha256', webhook.secret).update(row.payload).digest('hex')}`;
      return { method: 'POST', url: webhook.url, headers, body: row.payload };
    },
  };
}

export interface DeliveryTiming {
  /** First retry after this long; each later one waits twice as long, at most an hour. */
  readonly backoffMs: number;
  /** A request not answered within this long counts as failed. */
  readonly timeoutMs: number;
  readonly maxAttempts: number;
  /** How often due retries are looked for when nothing wakes the worker. */
  readonly pollMs: number;
  /** How long delivered rows are kept. */
  readonly retentionMs: number;
}

export const defaultTiming: DeliveryTiming = { backoffMs: 1000, timeoutMs: 10_000, maxAttempts: 10, pollMs: 1000, retentionMs: 7 * 86_400_000 };
/** Old delivered rows are looked for at most this often per process. */
const PRUNE_EVERY_MS = 3_600_000;
const MAX_BACKOFF_MS = 3_600_000;
const BATCH = 20;

export interface DeliveryWorker {
  /** Looks for due deliveries now (called after a write that queued some commits). */
  wake(): void;
  /** Resolves once no pass is running (tests). */
  idle(): Promise<void>;
  stop(): void;
}

interface OutboxRow {
  readonly id: number | string;
  readonly webhook: string;
  readonly event: string;
  readonly payload: string;
  readonly attempts: number | string;
}

export function startDelivery(db: Database, targets: readonly DeliveryTarget[], logger: Logger, timing: DeliveryTiming = defaultTiming): DeliveryWorker {
  const byName = new Map(targets.map((target) => [target.name, target]));
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let prunedAt = 0;

  const schedule = (ms: number): void => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => wake(), ms);
    timer.unref();
  };
  const pass = async (): Promise<void> => {
    if (Date.now() - prunedAt >= PRUNE_EVERY_MS) {
      prunedAt = Date.now();
      await prune(db, timing.retentionMs);
    }
    for (;;) {
      again = false;
      const rows = await claim(db, [...byName.keys()], timing);
      await Promise.all([...byEndpoint(rows).values()].map((queue) => deliverInOrder(db, queue, byName, logger, timing)));
      if (rows.length < BATCH && !again) return;
    }
  };
  const wake = (): void => {
    if (stopped) return;
    if (running !== undefined) {
      again = true;
      return;
    }
    running = pass()
      .catch((error: unknown) => {
        if (!stopped) logger.warn({ err: error }, 'webhook delivery: cannot read the outbox');
      })
      .finally(() => {
        running = undefined;
        schedule(timing.pollMs);
      });
  };
  wake();
  return {
    wake,
    idle: async () => {
      while (running !== undefined) await running;
    },
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** Deletes delivered rows older than the retention. */
export async function prune(db: Queryable, retentionMs: number): Promise<number> {
  const before = new Date(Date.now() - retentionMs);
  return (await db.execute(`DELETE FROM "${OUTBOX_TABLE}" WHERE delivered_at IS NOT NULL AND delivered_at < ?`, [before])).changes;
}

/** Due rows of the configured endpoints, leased to this process for one request's time. */
async function claim(db: Database, names: readonly string[], timing: DeliveryTiming): Promise<OutboxRow[]> {
  if (names.length === 0) return [];
  return db.transaction(async (tx) => {
    const now = new Date();
    const lock = tx.dialect.rowLock('updateSkipLocked');
    const rows = await tx.query<OutboxRow>(
      `SELECT id, webhook, event, payload, attempts FROM "${OUTBOX_TABLE}" WHERE delivered_at IS NULL AND failed_at IS NULL AND next_attempt_at <= ? AND webhook IN (${names.map(() => '?').join(', ')}) ORDER BY id LIMIT ${BATCH}${lock}`,
      [now, ...names],
    );
    if (rows.length === 0) return rows;
    // An endpoint's rows are sent one after another, so the k-th of them may wait for k-1 requests
    // before its own: its lease covers those requests plus its own (one UPDATE per position).
    const byPosition: number[][] = [];
    for (const queue of byEndpoint(rows).values()) queue.forEach((row, position) => (byPosition[position] ??= []).push(Number(row.id)));
    for (const [position, ids] of byPosition.entries()) {
      const leaseEnds = new Date(now.getTime() + (position + 1) * timing.timeoutMs + 1000);
      const lease = joinFragments([fragment(`UPDATE "${OUTBOX_TABLE}" SET next_attempt_at = ? WHERE `, [leaseEnds]), inIds(tx.dialect, 'id', ids, 'integer')], '');
      await tx.execute(lease.sql, lease.params);
    }
    return rows;
  });
}

/** The claimed rows per endpoint, each list in outbox (write) order. */
function byEndpoint(rows: readonly OutboxRow[]): Map<string, OutboxRow[]> {
  const queues = new Map<string, OutboxRow[]>();
  for (const row of rows) {
    const queue = queues.get(row.webhook);
    if (queue === undefined) queues.set(row.webhook, [row]);
    else queue.push(row);
  }
  return queues;
}

/**
 * One endpoint's rows, one request at a time: a receiver sees `entry.create` before the
 * `entry.publish` of the same write, as written. Endpoints are still served in parallel, so a
 * slow one does not hold up the others.
 */
async function deliverInOrder(db: Queryable, queue: readonly OutboxRow[], byName: ReadonlyMap<string, DeliveryTarget>, logger: Logger, timing: DeliveryTiming): Promise<void> {
  for (const row of queue) await deliver(db, row, byName.get(row.webhook), logger, timing);
}

async function deliver(db: Queryable, row: OutboxRow, target: DeliveryTarget | undefined, logger: Logger, timing: DeliveryTiming): Promise<void> {
  if (target === undefined) return;
  const attempt = Number(row.attempts) + 1;
  const log = { webhook: target.name, event: row.event, delivery: Number(row.id), attempt };
  const outcome = await send(target.request(row), timing.timeoutMs);
  const now = new Date();
  if (outcome.ok) {
    await db.execute(`UPDATE "${OUTBOX_TABLE}" SET delivered_at = ?, attempts = ?, last_status = ?, last_error = NULL WHERE id = ?`, [now, attempt, outcome.status, Number(row.id)]);
    logger.info({ ...log, status: outcome.status }, 'webhook delivered');
    return;
  }
  if (attempt >= timing.maxAttempts) {
    await db.execute(`UPDATE "${OUTBOX_TABLE}" SET failed_at = ?, attempts = ?, last_status = ?, last_error = ? WHERE id = ?`, [now, attempt, outcome.status, outcome.error, Number(row.id)]);
    logger.error({ ...log, status: outcome.status, error: outcome.error }, 'webhook delivery failed for good');
    return;
  }
  const wait = Math.min(timing.backoffMs * 2 ** (attempt - 1), MAX_BACKOFF_MS);
  const next = new Date(now.getTime() + wait);
  await db.execute(`UPDATE "${OUTBOX_TABLE}" SET next_attempt_at = ?, attempts = ?, last_status = ?, last_error = ? WHERE id = ?`, [next, attempt, outcome.status, outcome.error, Number(row.id)]);
  logger.warn({ ...log, status: outcome.status, error: outcome.error, retryAt: next.toISOString() }, 'webhook delivery failed, will retry');
}

type Outcome = { readonly ok: true; readonly status: number } | { readonly ok: false; readonly status: number | null; readonly error: string };

async function send(request: DeliveryRequest, timeoutMs: number): Promise<Outcome> {
  try {
    const res = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    await res.body?.cancel();
    if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
    return { ok: false, status: res.status, error: `answered ${res.status}` };
  } catch (error) {
    const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    return { ok: false, status: null, error: cause.slice(0, 500) };
  }
}
