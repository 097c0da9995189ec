/**
 * Points where code outside the engine takes part in a write (extensions/lifecycles.ts,
 * webhooks/outbox.ts): `before` and `after` run inside the write's transaction, so that what
 * they change commits or rolls back with the write, and a hook that throws undoes the whole
 * write; `committed` runs once the transaction has committed, for hooks that only notify.
 */
import type { Queryable } from '../database.ts';
import type { DeleteOptions, DocumentRef, WriteOptions } from './types.ts';

/** What a write does to a document, in Strapi's event names (`entry.create`, `entry.publish`, ...). */
export type WriteAction = 'create' | 'update' | 'delete' | 'publish';

export interface WriteEvent {
  readonly action: WriteAction;
  readonly uid: string;
  /** Known before the write except for `create` (known in `after`). */
  documentId: string | undefined;
  /** The request body of a create or update; a `before` hook may change it. */
  readonly data: Record<string, unknown> | undefined;
  readonly options: WriteOptions | DeleteOptions;
  /** The document and locale written; set for `after` and `committed`. */
  result: DocumentRef | undefined;
}

export interface WriteHooks {
  before(event: WriteEvent, tx: Queryable): Promise<void>;
  after(event: WriteEvent, tx: Queryable): Promise<void>;
  /** Runs after commit; it must not throw (the write is already done). */
  committed(event: WriteEvent): void;
}

export const noWriteHooks: WriteHooks = {
  before: async () => undefined,
  after: async () => undefined,
  committed: () => undefined,
};

/** The events a create or update is: itself, then `publish` when it publishes a draft & publish type. */
export function writeEvents(uid: string, action: 'create' | 'update', documentId: string | undefined, data: Record<string, unknown>, options: WriteOptions, publishes: boolean): WriteEvent[] {
  const events: WriteEvent[] = [{ action, uid, documentId, data, options, result: undefined }];
  if (publishes) events.push({ action: 'publish', uid, documentId, data, options, result: undefined });
  return events;
}
