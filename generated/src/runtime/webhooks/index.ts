/**
 * Webhooks of config/webhooks.json: the outbox hooks every write runs (outbox.ts) and the
 * delivery worker that sends what they queue (delivery.ts). Timings can be tuned with
 * CAPI_WEBHOOK_BACKOFF_MS, CAPI_WEBHOOK_TIMEOUT_MS, CAPI_WEBHOOK_MAX_ATTEMPTS, CAPI_WEBHOOK_POLL_MS
 * and CAPI_WEBHOOK_RETENTION_DAYS.
 */
import type { Environment } from '../config.ts';
import { noWriteHooks, type WriteHooks } from '../engine/write-hooks.ts';
import { combineHooks } from '../extensions/lifecycles.ts';
import type { AppContext } from '../server.ts';
import { defaultTiming, startDelivery, webhookTarget, type DeliveryTiming } from './delivery.ts';
import { mediaOutbox, outboxHooks } from './outbox.ts';
import type { MediaHooks } from '../upload/service.ts';
import { mediaPurge, purgeHooks, purgeTarget } from '../cache/purge.ts';

export interface Webhooks {
  readonly writes: WriteHooks;
  readonly media: MediaHooks;
}

/** The outbox's senders: config/webhooks.json's webhooks, and config/cache.json's CDN purge (cache/purge.ts). */
export function startWebhooks(context: AppContext, env: Environment = process.env): Webhooks {
  const webhooks = context.config.webhooks;
  const purge = context.config.cache.purge;
  if (webhooks.length === 0 && purge === null) return { writes: noWriteHooks, media: { inTransaction: async () => undefined, committed: () => undefined } };
  const targets = [...webhooks.map(webhookTarget), ...(purge === null ? [] : [purgeTarget(purge)])];
  const worker = startDelivery(context.db, targets, context.logger, timingFrom(env));
  // A pass in flight finishes (its rows are recorded) before the database closes under it.
  context.onClose?.(async () => {
    worker.stop();
    await worker.idle();
  });
  const wake = () => worker.wake();
  if (purge === null) return { writes: outboxHooks(context.model, webhooks, wake), media: mediaOutbox(webhooks, wake) };
  const media = [mediaOutbox(webhooks, wake), mediaPurge(wake)];
  return {
    writes: combineHooks([outboxHooks(context.model, webhooks, wake), purgeHooks(wake)]),
    media: {
      inTransaction: async (tx, event, file) => {
        for (const hooks of media) await hooks.inTransaction(tx, event, file);
      },
      committed: () => {
        for (const hooks of media) hooks.committed();
      },
    },
  };
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
