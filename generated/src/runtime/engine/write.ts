/**
 * The write half of the document service (types.ts `WriteEngine`): validates request bodies
 * against the model with Strapi 5's rules and messages, and stores documents in the version
 * layout of docs/architecture.md. Every call is one transaction: a failed validation or a
 * failed statement leaves the database as it was.
 */
import type { I18nConfig } from '../config.ts';
import { retryingTransaction, type Database } from '../database.ts';
import { ValidationError } from '../errors.ts';
import { createDocumentId } from '../document-id.ts';
import type { ModelSchema } from '../schema.ts';
import { hashPassword } from './password.ts';
import type { DeleteOptions, DocumentRef, WriteEngine, WriteOptions } from './types.ts';
import type { WriteContext } from './write-context.ts';
import { noWriteHooks, writeEvents, type WriteEvent, type WriteHooks } from './write-hooks.ts';
import { assertWritableBody, createDocument, deleteDocument, lockForWrite, singleDocumentId, updateDocument, type Hasher } from './write-documents.ts';
import { contentTypeOf } from './write-schema.ts';
import { lockKey } from './sql.ts';

export interface WriteEngineOptions {
  readonly db: Database;
  readonly model: ModelSchema;
  readonly i18n: I18nConfig;
  /** The clock for timestamps; injectable so that tests are deterministic. */
  readonly now?: () => Date;
  /** How passwords are hashed (scrypt by default). */
  readonly hashPassword?: Hasher;
  /** Lifecycle hooks and the webhook outbox (write-hooks.ts). */
  readonly hooks?: WriteHooks;
}

export function createWriteEngine(options: WriteEngineOptions): WriteEngine {
  const { db, model, i18n } = options;
  const now = options.now ?? (() => new Date());
  const hash = options.hashPassword ?? hashPassword;
  const hooks = options.hooks ?? noWriteHooks;

  // A write that lost a lock race is run again from the start (retryingTransaction); a value
  // the database refuses is the client's error.
  const inTransaction = async <T>(fn: (ctx: WriteContext) => Promise<T>): Promise<T> => {
    try {
      return await retryingTransaction(db, (tx) => fn({ db: tx, model, i18n, now: now() }));
    } catch (error) {
      const refusal = db.dialect.refusedValue(error);
      throw refusal === undefined ? error : new ValidationError(refusal);
    }
  };

  /**
   * One write with its hooks: `before` hooks (which may change the body, checked again), the
   * write, `after` hooks, all in one transaction; `committed` hooks once it has committed.
   */
  const hooked = async <T extends DocumentRef | boolean | null>(
    makeEvents: (ctx: WriteContext) => WriteEvent[] | Promise<WriteEvent[]>,
    write: (ctx: WriteContext, data: Record<string, unknown> | undefined) => Promise<{ value: T; ref: DocumentRef | undefined }>,
    uid: string,
  ): Promise<T> => {
    let events: WriteEvent[] = [];
    const value = await inTransaction(async (ctx) => {
      events = await makeEvents(ctx);
      for (const event of events) await hooks.before(event, ctx.db);
      const data = events[0]?.data === undefined ? undefined : assertWritableBody({ model }, contentTypeOf(model, uid), events[0].data);
      const { value, ref } = await write(ctx, data);
      if (ref === undefined) {
        events = [];
        return value;
      }
      for (const event of events) {
        event.documentId = ref.documentId;
        event.result = ref;
        await hooks.after(event, ctx.db);
      }
      return value;
    });
    for (const event of events) hooks.committed(event);
    return value;
  };
  const publishes = (uid: string, writeOptions: WriteOptions): boolean => contentTypeOf(model, uid).draftAndPublish && writeOptions.status === 'published';
  const refOf = <T extends DocumentRef | null>(value: T) => ({ value, ref: value ?? undefined });

  return {
    async create(uid: string, data: unknown, writeOptions: WriteOptions): Promise<DocumentRef> {
      const schema = contentTypeOf(model, uid);
      const body = assertWritableBody({ model }, schema, data);
      const events = () => writeEvents(uid, 'create', undefined, structuredClone(body), writeOptions, publishes(uid, writeOptions));
      return hooked(
        events,
        async (ctx, checked) => {
          const documentId = createDocumentId();
          await lockForWrite(ctx, schema, documentId);
          return refOf(await createDocument(ctx, hash, schema, documentId, checked ?? body, writeOptions));
        },
        uid,
      );
    },

    async update(uid: string, documentId: string, data: unknown, writeOptions: WriteOptions): Promise<DocumentRef | null> {
      const schema = contentTypeOf(model, uid);
      const body = assertWritableBody({ model }, schema, data);
      // Locked before the hooks run, so that they see the document as the write will find it.
      const events = async (ctx: WriteContext) => {
        await lockForWrite(ctx, schema, documentId);
        return writeEvents(uid, 'update', documentId, structuredClone(body), writeOptions, publishes(uid, writeOptions));
      };
      return hooked(
        events,
        async (ctx, checked) => {
          return refOf(await updateDocument(ctx, hash, schema, documentId, checked ?? body, writeOptions));
        },
        uid,
      );
    },

    async putSingle(uid: string, data: unknown, writeOptions: WriteOptions): Promise<DocumentRef> {
      const schema = contentTypeOf(model, uid);
      const body = assertWritableBody({ model }, schema, data);
      // Whether this creates or updates is known only inside the transaction, before any hook runs.
      let existing: string | undefined;
      const events = async (ctx: WriteContext) => {
        // One document per single type: concurrent first writes must not both create it.
        await lockKey(ctx.db, `capi:single:${uid}`);
        existing = await singleDocumentId(ctx, schema);
        if (existing !== undefined) await lockForWrite(ctx, schema, existing);
        return writeEvents(uid, existing === undefined ? 'create' : 'update', existing, structuredClone(body), writeOptions, publishes(uid, writeOptions));
      };
      return hooked(
        events,
        async (ctx, checked) => {
          const documentId = existing ?? createDocumentId();
          if (existing === undefined) await lockForWrite(ctx, schema, documentId);
          if (existing === undefined) return refOf(await createDocument(ctx, hash, schema, documentId, checked ?? body, writeOptions));
          const written = await updateDocument(ctx, hash, schema, documentId, checked ?? body, writeOptions);
          if (written === null) throw new Error(`write engine: the document of ${uid} disappeared`);
          return refOf(written);
        },
        uid,
      );
    },

    async delete(uid: string, documentId: string, deleteOptions: DeleteOptions): Promise<boolean> {
      const schema = contentTypeOf(model, uid);
      const events = async (ctx: WriteContext): Promise<WriteEvent[]> => {
        await lockForWrite(ctx, schema, documentId);
        return [{ action: 'delete', uid, documentId, data: undefined, options: deleteOptions, result: undefined }];
      };
      return hooked(
        events,
        async (ctx) => {
          const deleted = await deleteDocument(ctx, schema, documentId, deleteOptions);
          return { value: deleted, ref: deleted ? deletedRef(documentId, deleteOptions) : undefined };
        },
        uid,
      );
    },

    async deleteSingle(uid: string, deleteOptions: DeleteOptions): Promise<boolean> {
      const schema = contentTypeOf(model, uid);
      let documentId: string | undefined;
      const events = async (ctx: WriteContext): Promise<WriteEvent[]> => {
        await lockKey(ctx.db, `capi:single:${uid}`);
        documentId = await singleDocumentId(ctx, schema);
        if (documentId !== undefined) await lockForWrite(ctx, schema, documentId);
        return [{ action: 'delete', uid, documentId, data: undefined, options: deleteOptions, result: undefined }];
      };
      return hooked(
        events,
        async (ctx) => {
          if (documentId === undefined) return { value: false, ref: undefined };
          const deleted = await deleteDocument(ctx, schema, documentId, deleteOptions);
          return { value: deleted, ref: deleted ? deletedRef(documentId, deleteOptions) : undefined };
        },
        uid,
      );
    },
  };
}

/** What a delete removed: the document, in one locale unless it was all of them. */
function deletedRef(documentId: string, options: DeleteOptions): DocumentRef {
  return options.locale === undefined || options.locale === '*' ? { documentId } : { documentId, locale: options.locale };
}
