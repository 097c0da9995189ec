/**
 * What every step of one write shares: the transaction it runs in, the model, the locales, the
 * instant the write happens at, and which document version (and which row of it) is written.
 */
import type { I18nConfig } from '../config.ts';
import type { Queryable } from '../database.ts';
import type { ContentTypeSchema, ModelSchema } from '../schema.ts';
import type { Schema } from './write-schema.ts';

export interface WriteContext {
  /** The transaction handle. */
  readonly db: Queryable;
  readonly model: ModelSchema;
  readonly i18n: I18nConfig;
  /** The instant of this write: updated_at, published_at (a Date, bound as a timestamp). */
  readonly now: Date;
}

export type VersionStatus = 'draft' | 'published';

/** The document version a write is about: components and links inside it belong to it too. */
export interface Version {
  readonly schema: ContentTypeSchema;
  readonly documentId: string;
  readonly status: VersionStatus;
  /** null on types without i18n. */
  readonly locale: string | null;
}

/** A row that owns attribute values: a version row, or a component row inside one. */
export interface Owner {
  readonly schema: Schema;
  readonly id: number;
  readonly version: Version;
}
