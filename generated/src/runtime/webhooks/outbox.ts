/**
 * The webhook outbox: one row per (event, endpoint), inserted by the write's own transaction, so
 * that a change and the promise to announce it commit or roll back together. Delivery
 * (delivery.ts) reads the table after commit; a process that dies in between leaves the rows for
 * the next one.
 */
import type { Queryable } from '../database.ts';
import type { Entity } from '../engine/types.ts';
import type { WriteEvent, WriteHooks } from '../engine/write-hooks.ts';
import { readEntry } from '../extensions/lifecycles.ts';
import type { ModelSchema } from '../schema.ts';
import type { MediaHooks } from '../upload/service.ts';
import type { MediaFile } from '../upload/serialize.ts';
import type { WebhookConfig, WebhookEvent } from './config.ts';

export const OUTBOX_TABLE = 'capi_webhook_deliveries';

/** Strapi's webhook body of an entry event. */
export interface EntryPayload {
  readonly event: WebhookEvent;
  readonly createdAt: string;
  /** The type's singular name (`article`), as Strapi sends it. */
  readonly model: string;
  readonly uid: string;
  readonly entry: Entity | null;
}

/** Strapi's webhook body of a media event: the file under `media`. */
export interface MediaPayload {
  readonly event: WebhookEvent;
  readonly createdAt: string;
  readonly media: MediaFile;
}

export type WebhookPayload = EntryPayload | MediaPayload;

/** Records deliveries of `payload` to every endpoint that listens to its event; inside the caller's transaction. */
export async function enqueue(tx: Queryable, webhooks: readonly WebhookConfig[], payload: WebhookPayload): Promise<number> {
  const targets = webhooks.filter((w) => w.events.includes(payload.event));
  const body = JSON.stringify(payload);
  // The payload's own instant, bound as a timestamp (its ISO text would be text on MySQL).
  for (const webhook of targets) await enqueueRow(tx, webhook.name, payload.event, body, new Date(payload.createdAt));
  return targets.length;
}

/** One delivery to the target named `target` (delivery.ts `DeliveryTarget`), inside the caller's transaction. */
export async function enqueueRow(tx: Queryable, target: string, event: string, payload: string, at: Date): Promise<void> {
  await tx.execute(`INSERT INTO "${OUTBOX_TABLE}" (webhook, event, payload, attempts, next_attempt_at, created_at) VALUES (?, ?, ?, 0, ?, ?)`, [target, event, payload, at, at]);
}

/**
 * The outbox as write hooks: a delete's entry is read before it goes (Strapi sends the deleted
 * entry), any other's after the write; `onQueued` wakes the delivery once the write committed.
 */
export function outboxHooks(model: ModelSchema, webhooks: readonly WebhookConfig[], onQueued: () => void): WriteHooks {
  const listens = (event: WriteEvent) => webhooks.some((w) => w.events.includes(`entry.${event.action}`));
  const deletedEntries = new WeakMap<WriteEvent, Entity | null>();
  const queued = new WeakSet<WriteEvent>();
  return {
    before: async (event, tx) => {
      if (event.action !== 'delete' || !listens(event)) return;
      deletedEntries.set(event, await readDeleted(model, tx, event));
    },
    after: async (event, tx) => {
      if (!listens(event)) return;
      const entry = event.action === 'delete' ? (deletedEntries.get(event) ?? null) : await readEntry(model, tx, event);
      const payload: EntryPayload = { event: `entry.${event.action}`, createdAt: new Date().toISOString(), model: model.contentTypes[event.uid]?.singularName ?? event.uid, uid: event.uid, entry };
      if ((await enqueue(tx, webhooks, payload)) > 0) queued.add(event);
    },
    committed: (event) => {
      if (queued.has(event)) onQueued();
    },
  };
}

/** The version a delete is about to remove: the published one when there is one, else the draft. */
async function readDeleted(model: ModelSchema, tx: Queryable, event: WriteEvent): Promise<Entity | null> {
  const locale = 'locale' in event.options && event.options.locale !== '*' ? event.options.locale : undefined;
  const ref = { documentId: event.documentId ?? '', ...(locale === undefined ? {} : { locale }) };
  const published = await readEntry(model, tx, { ...event, options: { status: 'published' }, result: ref });
  return published ?? (await readEntry(model, tx, { ...event, options: { status: 'draft' }, result: ref }));
}

/** The outbox for media changes: the same table, Strapi's `media.*` events. */
export function mediaOutbox(webhooks: readonly WebhookConfig[], onQueued: () => void): MediaHooks {
  // Shared by concurrent uploads: at worst a rolled-back one causes a needless wake (a poll),
  // and a missed wake is caught by the worker's next poll.
  let queued = false;
  return {
    inTransaction: async (tx, event, media) => {
      if ((await enqueue(tx, webhooks, { event, createdAt: new Date().toISOString(), media })) > 0) queued = true;
    },
    committed: () => {
      if (!queued) return;
      queued = false;
      onQueued();
    },
  };
}
