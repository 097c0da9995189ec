/**
 * CDN purges (config/cache.json `purge`): every write queues, in its own transaction, one
 * outbox row naming the keys to evict, which the webhook delivery worker sends after commit,
 * retrying until the CDN accepts it (webhooks/delivery.ts). A write of document D of type T
 * evicts `T` and `T:D`: the answers about D, those listing or populating T, and nothing else
 * (cache/keys.ts says which answers carry which keys).
 */
import type { Queryable } from '../database.ts';
import type { WriteHooks } from '../engine/write-hooks.ts';
import type { MediaHooks } from '../upload/service.ts';
import { UPLOAD_FILE_UID } from '../upload/file-schema.ts';
import type { DeliveryTarget } from '../webhooks/delivery.ts';
import { enqueueRow } from '../webhooks/outbox.ts';
import type { PurgeConfig } from './config.ts';

/** The outbox's name for purges (its `webhook` column); webhooks/config.ts keeps it from webhooks. */
export const PURGE_TARGET = 'capi:cache-purge';

/** The purge request of a row: the config's templates with the row's keys filled in. */
export function purgeTarget(config: PurgeConfig): DeliveryTarget {
  return {
    name: PURGE_TARGET,
    request: (row) => {
      const keys = (JSON.parse(row.payload) as { keys: string[] }).keys;
      const fill = (template: string): string => template.replaceAll('{keysJson}', JSON.stringify(keys)).replaceAll('{keys,}', keys.join(',')).replaceAll('{keys}', keys.join(' '));
      const headers = Object.fromEntries(Object.entries(config.headers).map(([name, value]) => [name, fill(value)]));
      return { method: config.method, url: config.url, headers, body: config.body === null ? undefined : fill(config.body) };
    },
  };
}

/** The keys a write of `documentId` of `uid` evicts. */
export function purgeKeys(uid: string, documentId: string | undefined): string[] {
  return documentId === undefined ? [uid] : [uid, `${uid}:${documentId}`];
}

/**
 * The purge as write hooks: one row per document a transaction writes (a create that also
 * publishes is two events about one document), woken after commit.
 */
export function purgeHooks(onQueued: () => void): WriteHooks {
  const queuedIn = new WeakMap<Queryable, Set<string>>();
  const queued = new WeakSet<object>();
  return {
    before: async () => undefined,
    after: async (event, tx) => {
      const keys = purgeKeys(event.uid, event.documentId);
      const done = queuedIn.get(tx) ?? new Set<string>();
      queuedIn.set(tx, done);
      const id = keys.join(' ');
      if (done.has(id)) return;
      done.add(id);
      await enqueueRow(tx, PURGE_TARGET, `entry.${event.action}`, JSON.stringify({ keys }), new Date());
      queued.add(event);
    },
    committed: (event) => {
      if (queued.has(event)) onQueued();
    },
  };
}

/** The purge of media changes: the file's keys. */
export function mediaPurge(onQueued: () => void): MediaHooks {
  let queued = false;
  return {
    inTransaction: async (tx, event, file) => {
      await enqueueRow(tx, PURGE_TARGET, event, JSON.stringify({ keys: purgeKeys(UPLOAD_FILE_UID, file.documentId) }), new Date());
      queued = true;
    },
    committed: () => {
      if (!queued) return;
      queued = false;
      onQueued();
    },
  };
}
