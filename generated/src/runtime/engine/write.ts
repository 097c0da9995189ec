/**
 * The write half of the document service (types.ts `WriteEngine`): validates request bodies
 * against the model with Strapi 5's rules and messages, and stores documents in the version
 * layout of docs/architecture.md. Every call is one transaction: a failed validation or a
 * failed statement leaves the database as it was.
 */
import type { I18nConfig } from '../config.ts';
import type { Database } from '../database.ts';
import { createDocumentId } from '../document-id.ts';
import type { ModelSchema } from '../schema.ts';
import { hashPassword } from './password.ts';
import type { DeleteOptions, DocumentRef, WriteEngine, WriteOptions } from './types.ts';
import type { WriteContext } from './write-context.ts';
import {
  assertWritableBody,
  createDocument,
  deleteDocument,
  lockForWrite,
  singleDocumentId,
  updateDocument,
  type Hasher,
} from './write-documents.ts';
import { contentTypeOf } from './write-schema.ts';
import { isRetryable, lockKey } from './write-sql.ts';

/** How many times a write that lost a lock race is tried in all. */
const MAX_ATTEMPTS = 5;

export interface WriteEngineOptions {
  readonly db: Database;
  readonly model: ModelSchema;
  readonly i18n: I18nConfig;
  /** The clock for timestamps; injectable so that tests are deterministic. */
  readonly now?: () => Date;
  /** How passwords are hashed (scrypt by default). */
  readonly hashPassword?: Hasher;
}

export function createWriteEngine(options: WriteEngineOptions): WriteEngine {
  const { db, model, i18n } = options;
  const now = options.now ?? (() => new Date());
  const hash = options.hashPassword ?? hashPassword;

  // A write that lost a lock race (write-sql.ts isRetryable) is rolled back and run again from
  // the start, so that the loser of a deadlock answers as if it had come second.
  const inTransaction = async <T>(fn: (ctx: WriteContext) => Promise<T>): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await db.transaction((tx) => fn({ db: tx, model, i18n, now: now().toISOString() }));
      } catch (error) {
        if (attempt >= MAX_ATTEMPTS || !isRetryable(error)) throw error;
        // A random pause, growing with each attempt, so that the writers that collided do not
        // start again in step and collide the same way.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
      }
    }
  };

  return {
    async create(uid: string, data: unknown, writeOptions: WriteOptions): Promise<DocumentRef> {
      const schema = contentTypeOf(model, uid);
      const body = assertWritableBody({ model }, schema, data);
      return inTransaction(async (ctx) => {
        const documentId = createDocumentId();
        await lockForWrite(ctx, schema, documentId);
        return createDocument(ctx, hash, schema, documentId, body, writeOptions);
      });
    },

    async update(uid: string, documentId: string, data: unknown, writeOptions: WriteOptions): Promise<DocumentRef | null> {
      const schema = contentTypeOf(model, uid);
      const body = assertWritableBody({ model }, schema, data);
      return inTransaction(async (ctx) => {
        await lockForWrite(ctx, schema, documentId);
        return updateDocument(ctx, hash, schema, documentId, body, writeOptions);
      });
    },

    async putSingle(uid: string, data: unknown, writeOptions: WriteOptions): Promise<DocumentRef> {
      const schema = contentTypeOf(model, uid);
      const body = assertWritableBody({ model }, schema, data);
      return inTransaction(async (ctx) => {
        // One document per single type: concurrent first writes must not both create it.
        await lockKey(ctx.db, `capi:single:${uid}`);
        const existing = await singleDocumentId(ctx, schema);
        const documentId = existing ?? createDocumentId();
        await lockForWrite(ctx, schema, documentId);
        if (existing === undefined) return createDocument(ctx, hash, schema, documentId, body, writeOptions);
        const written = await updateDocument(ctx, hash, schema, documentId, body, writeOptions);
        if (written === null) throw new Error(`write engine: the document of ${uid} disappeared`);
        return written;
      });
    },

    async delete(uid: string, documentId: string, deleteOptions: DeleteOptions): Promise<boolean> {
      const schema = contentTypeOf(model, uid);
      return inTransaction(async (ctx) => {
        await lockForWrite(ctx, schema, documentId);
        return deleteDocument(ctx, schema, documentId, deleteOptions);
      });
    },

    async deleteSingle(uid: string, deleteOptions: DeleteOptions): Promise<boolean> {
      const schema = contentTypeOf(model, uid);
      return inTransaction(async (ctx) => {
        await lockKey(ctx.db, `capi:single:${uid}`);
        const documentId = await singleDocumentId(ctx, schema);
        if (documentId === undefined) return false;
        await lockForWrite(ctx, schema, documentId);
        return deleteDocument(ctx, schema, documentId, deleteOptions);
      });
    },
  };
}
