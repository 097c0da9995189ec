/**
 * The outbox's backlog, for metrics: deliveries not yet made, per webhook, waiting (due now or
 * for a retry) or given up (failed for good, kept for an operator). Delivered rows are not backlog.
 */
import type { Queryable } from '../database.ts';
import { OUTBOX_TABLE } from './outbox.ts';

export type BacklogState = 'pending' | 'failed';

export interface BacklogCount {
  readonly webhook: string;
  readonly state: BacklogState;
  readonly count: number;
}

export async function webhookBacklog(db: Queryable): Promise<BacklogCount[]> {
  const rows = await db.query<{ webhook: string; failed: number | string; n: number | string }>(
    `SELECT webhook, CASE WHEN failed_at IS NULL THEN 0 ELSE 1 END AS failed, COUNT(*) AS n FROM "${OUTBOX_TABLE}" WHERE delivered_at IS NULL GROUP BY webhook, CASE WHEN failed_at IS NULL THEN 0 ELSE 1 END`,
  );
  return rows.map((row) => ({ webhook: row.webhook, state: Number(row.failed) === 1 ? 'failed' : 'pending', count: Number(row.n) }));
}
