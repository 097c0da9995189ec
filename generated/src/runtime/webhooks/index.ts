/**
 * Webhooks of config/webhooks.json: the outbox hooks every write runs (outbox.ts) and the
 * delivery worker that sends what they queue (delivery.ts). Timings can be tuned with
 * CAPI_WEBHOOK_BACKOFF_MS, CAPI_WEBHOOK_TIMEOUT_MS, CAPI_WEBHOOK_MAX_ATTEMPTS, CAPI_WEBHOOK_POLL_MS.
 */
import type { Environment } from '../config.ts';
import { noWriteHooks, type WriteHooks } from '../engine/write-hooks.ts';
import type { AppContext } from '../server.ts';
import { defaultTiming, startDelivery, type DeliveryTiming } from './delivery.ts';
import { outboxHooks } from './outbox.ts';

export function webhookHooks(context: AppContext, env: Environment = process.env): WriteHooks {
  const webhooks = context.config.webhooks;
  if (webhooks.length === 0) return noWriteHooks;
  const worker = startDelivery(context.db, webhooks, context.logger, timingFrom(env));
  return outboxHooks(context.model, webhooks, () => worker.wake());
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
  };
}
