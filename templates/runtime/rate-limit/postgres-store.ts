/**
 * An express-rate-limit store in a PostgreSQL table, so that several processes serving one
 * database share each counter: with N processes behind a load balancer the limit is still `max`
 * per window, not N × `max`.
 *
 * One row per key and fixed window. A hit is one atomic upsert: a row whose window has ended
 * starts again at 1, otherwise its count goes up by one; the database's clock decides, so that
 * processes whose clocks drift still agree. Ended windows are deleted now and then by the hits
 * themselves (no timer to stop at shutdown).
 */
import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import type { Queryable } from '../database.ts';

export const RATE_LIMIT_TABLE = 'capi_rate_limits';

/** One hit in this many also deletes the rows of windows that ended. */
const sweepEvery = 500;

interface CounterRow {
  hits: number | string;
  reset_ms: number | string;
}

export class PostgresRateLimitStore implements Store {
  /** Shared across processes: express-rate-limit must not assume it sees every hit. */
  readonly localKeys = false;
  readonly prefix: string;
  private windowMs: number;
  private hitsSinceSweep = 0;

  constructor(
    private readonly db: Queryable,
    options: { readonly prefix: string; readonly windowMs: number },
  ) {
    this.prefix = options.prefix;
    this.windowMs = options.windowMs;
  }

  init(options: Options): void {
    this.windowMs = options.windowMs;
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    if (++this.hitsSinceSweep >= sweepEvery) {
      this.hitsSinceSweep = 0;
      await this.db.execute(`DELETE FROM ${RATE_LIMIT_TABLE} WHERE reset_at <= now()`);
    }
    const [row] = await this.db.query<CounterRow>(
      `INSERT INTO ${RATE_LIMIT_TABLE} (key, hits, reset_at) VALUES (?, 1, now() + ? * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN ${RATE_LIMIT_TABLE}.reset_at <= now() THEN 1 ELSE ${RATE_LIMIT_TABLE}.hits + 1 END,
         reset_at = CASE WHEN ${RATE_LIMIT_TABLE}.reset_at <= now() THEN EXCLUDED.reset_at ELSE ${RATE_LIMIT_TABLE}.reset_at END
       RETURNING hits, (extract(epoch FROM reset_at) * 1000)::bigint AS reset_ms`,
      [this.key(key), this.windowMs],
    );
    if (row === undefined) throw new Error('rate limit: the counter upsert returned no row');
    return { totalHits: Number(row.hits), resetTime: new Date(Number(row.reset_ms)) };
  }

  async get(key: string): Promise<ClientRateLimitInfo | undefined> {
    const [row] = await this.db.query<CounterRow>(`SELECT hits, (extract(epoch FROM reset_at) * 1000)::bigint AS reset_ms FROM ${RATE_LIMIT_TABLE} WHERE key = ? AND reset_at > now()`, [
      this.key(key),
    ]);
    return row === undefined ? undefined : { totalHits: Number(row.hits), resetTime: new Date(Number(row.reset_ms)) };
  }

  async decrement(key: string): Promise<void> {
    await this.db.execute(`UPDATE ${RATE_LIMIT_TABLE} SET hits = hits - 1 WHERE key = ? AND hits > 0 AND reset_at > now()`, [this.key(key)]);
  }

  async resetKey(key: string): Promise<void> {
    await this.db.execute(`DELETE FROM ${RATE_LIMIT_TABLE} WHERE key = ?`, [this.key(key)]);
  }

  private key(key: string): string {
    return `${this.prefix}${key}`;
  }
}
