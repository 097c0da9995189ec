/**
 * Webhooks of config/webhooks.json: the outbox hooks every write runs (outbox.ts) and the
 * delivery worker that sends what they queue (delivery.ts). Timings can be tuned with
 * CAPI_WEBHOOK_BACKOFF_MS, CAPI_WEBHOOK_TIMEOUT_MS, CAPI_WEBHOOK_MAX_ATTEMPTS, CAPI_WEBHOOK_POLL_MS
 * and CAPI_WEBHOOK_RETENTION_DAYS.
 */
import type { Environment } from '../config.ts';
import { noWriteHooks, type WriteHooks } from '../engine/write-hooks.ts';
import type { AppContext } from '../server.ts';
import { defaultTiming, startDelivery, type DeliveryTiming } from './delivery.ts';
import { mediaOutbox, outboxHooks } from './outbox.ts';
import type { MediaHooks } from '../upload/service.ts';

export interface Webhooks {
  readonly writes: WriteHooks;
  readonly media: MediaHooks;
}

export function startWebhooks(context: AppContext, env: Environment = process.env): Webhooks {
  const webhooks = context.config.webhooks;
  if (webhooks.length === 0) return { writes: noWriteHooks, media: { inTransaction: async () => undefined, committed: () => undefined } };
  const worker = startDelivery(context.db, webhooks, context.logger, timingFrom(env));
  // A pass in flight finishes (its rows are recorded) before the database closes under it.
  context.onClose?.(async () => {
    worker.stop();
    await worker.idle();
  });
  const wake = () => worker.wake();
  return { writes: outboxHooks(context.model, webhooks, wake), media: mediaOutbox(webhooks, wake) };
}

function timingFrom(env: Environment): DeliveryTiming {
  const positive = (value: string | undefined, fallback: number): number => {
    const n = Number(value);
    return value !== undefined && Number.isInteger(n) && n > 0 ? n : fallback;
  };
  return {
    backoffMs: positive(env.CAPI_WEBHOOK_BACKOFF_MS, defaultTiming.backoffMs),
    timeoutMs: positive(env.CAPI_WEBHOOK_TIMEOUT_MS, defaultTiming.timeoutMs),
    maxAttempts: positive(env.CAPI_WEBHOOK_MAX_ATTEMPTS, defaultTiming.maxAttempts),
    pollMs: positive(env.CAPI_WEBHOOK_POLL_MS, defaultTiming.pollMs),
    retentionMs: positive(env.CAPI_WEBHOOK_RETENTION_DAYS, defaultTiming.retentionMs / 86_400_000) * 86_400_000,
  };
}
