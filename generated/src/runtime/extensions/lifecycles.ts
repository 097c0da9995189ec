/**
 * A project's lifecycle hooks as the write engine's hooks (engine/write-hooks.ts): the hooks of
 * the written type, then those for every type. `before*`/`after*` run in the write's transaction
 * (a throw rolls the write back); `afterCommit` runs once it has committed, and its failures are
 * logged, never thrown (the write is done).
 */
import type { Queryable } from '../database.ts';
import { createReadEngine } from '../engine/read.ts';
import type { Entity } from '../engine/types.ts';
import type { WriteEvent, WriteHooks } from '../engine/write-hooks.ts';
import type { Logger } from '../logger.ts';
import type { ModelSchema } from '../schema.ts';
import type { Extensions, LifecycleEvent, Lifecycles } from './types.ts';

type HookName = Exclude<keyof Lifecycles, 'afterCommit'>;

const beforeHooks: Readonly<Record<WriteEvent['action'], HookName | undefined>> = { create: 'beforeCreate', update: 'beforeUpdate', delete: 'beforeDelete', publish: undefined };
const afterHooks: Readonly<Record<WriteEvent['action'], HookName>> = { create: 'afterCreate', update: 'afterUpdate', delete: 'afterDelete', publish: 'afterPublish' };

export interface LifecycleDeps {
  readonly model: ModelSchema;
  /** Committed entries are read through the database itself. */
  readonly db: Queryable;
  readonly logger: Logger;
}

export function lifecycleHooks(extensions: Extensions, { model, db, logger }: LifecycleDeps): WriteHooks {
  const hooksOf = (uid: string): Lifecycles[] => [extensions.contentTypes?.[uid]?.lifecycles as Lifecycles | undefined, extensions.lifecycles].filter((l): l is Lifecycles => l !== undefined);
  const run = async (name: HookName | undefined, event: WriteEvent, tx: Queryable): Promise<void> => {
    if (name === undefined) return;
    for (const lifecycles of hooksOf(event.uid)) await lifecycles[name]?.(lifecycleEvent(event, tx, model));
  };
  return {
    before: (event, tx) => run(beforeHooks[event.action], event, tx),
    after: (event, tx) => run(afterHooks[event.action], event, tx),
    committed: (event) => {
      const hooks = hooksOf(event.uid).filter((l) => l.afterCommit !== undefined);
      if (hooks.length === 0) return;
      void (async () => {
        const entry = event.action === 'delete' ? null : await readEntry(model, db, event);
        for (const lifecycles of hooks) await lifecycles.afterCommit?.({ ...eventFields(event), entry });
      })().catch((error: unknown) => logger.error({ err: error, uid: event.uid, action: event.action }, 'afterCommit hook failed'));
    },
  };
}

/** Hooks of several sources (lifecycles, the webhook outbox) as one, in order. */
export function combineHooks(hooks: readonly WriteHooks[]): WriteHooks {
  return {
    before: async (event, tx) => {
      for (const h of hooks) await h.before(event, tx);
    },
    after: async (event, tx) => {
      for (const h of hooks) await h.after(event, tx);
    },
    committed: (event) => {
      for (const h of hooks) h.committed(event);
    },
  };
}

function eventFields(event: WriteEvent): Omit<LifecycleEvent, 'db' | 'entry'> {
  return { action: event.action, uid: event.uid, documentId: event.documentId, data: event.data, locale: event.result?.locale ?? ('locale' in event.options ? event.options.locale : undefined) };
}

function lifecycleEvent(event: WriteEvent, tx: Queryable, model: ModelSchema): LifecycleEvent {
  return { ...eventFields(event), db: tx, entry: () => (event.action === 'delete' ? Promise.resolve(null) : readEntry(model, tx, event)) };
}

/** The version a write produced, as the API returns it (private attributes never are), without relations. */
export async function readEntry(model: ModelSchema, db: Queryable, event: WriteEvent): Promise<Entity | null> {
  const documentId = event.result?.documentId ?? event.documentId;
  if (documentId === undefined) return null;
  const published = model.contentTypes[event.uid]?.draftAndPublish !== true || ('status' in event.options && event.options.status === 'published');
  const status = published ? 'published' : 'draft';
  const locale = event.result?.locale;
  return createReadEngine({ db, model }).findOne(event.uid, documentId, { populate: {}, status, ...(locale === undefined ? {} : { locale }) });
}
