/**
 * The document service: the one engine that REST controllers and GraphQL resolvers call, the way
 * Strapi's document service serves both. Reads take validated queries (query/types.ts) and
 * return JSON-ready entities in Strapi 5's REST shape; writes take request bodies, validate them
 * against the model and return which document and locale they touched, so that the caller reads
 * the result back with whatever populate it was asked for.
 */
import type { ListQuery, ReadQuery, Status } from '../query/types.ts';
import type { EntityLayout } from './layout.ts';

/** A document version as the API returns it: plain JSON values only. */
export type Entity = { [key: string]: unknown };

export interface ListResult {
  readonly results: Entity[];
  /** Matching documents over all pages; undefined when the query asked `withCount: false`. */
  readonly total: number | undefined;
}

/** A page whose entries the database wrote as JSON text (engine/read.ts `rendered`). */
export interface RenderedList {
  /** The entries: a JSON array, byte for byte what JSON.stringify writes of `findMany`'s results. */
  readonly json: string;
  readonly total: number | undefined;
}

/**
 * Reads answered as JSON text written by the database, with no per-row JavaScript. Each returns
 * undefined where the database, the populate tree or a stored value needs the per-row path; the
 * caller then calls the ReadEngine method of the same name.
 */
/**
 * Reads whose JSON the database writes (read.ts): each entity in REST's shape, or in `layout`'s
 * (GraphQL's selection, layout.ts). Undefined where the read must run in rows instead.
 */
export interface RenderedReads {
  findMany(uid: string, query: ListQuery, layout?: EntityLayout): Promise<RenderedList | undefined>;
  /** The entity as JSON text, `null` when there is none. */
  findOne(uid: string, documentId: string, query: ReadQuery, layout?: EntityLayout): Promise<string | undefined>;
  findSingle(uid: string, query: ReadQuery, layout?: EntityLayout): Promise<string | undefined>;
}

export interface ReadEngine {
  /** The same reads as JSON text; absent on services that wrap the engine (document middlewares). */
  readonly rendered?: RenderedReads;
  findMany(uid: string, query: ListQuery): Promise<ListResult>;
  /** One document's version selected by `query.status` / `query.locale`, or null. */
  findOne(uid: string, documentId: string, query: ReadQuery): Promise<Entity | null>;
  /** The document of a single type (there is at most one), or null. */
  findSingle(uid: string, query: ReadQuery): Promise<Entity | null>;
}

export interface WriteOptions {
  /** REST writes publish unless `?status=draft`, as Strapi 5 does. Ignored without draft & publish. */
  readonly status: Status;
  /** Target locale of a localized type; the default locale when undefined. Ignored otherwise. */
  readonly locale?: string;
}

export interface DocumentRef {
  readonly documentId: string;
  readonly locale?: string;
}

export interface DeleteOptions {
  /** A locale deletes that locale's versions only; `'*'` every locale; undefined the default locale. */
  readonly locale?: string;
}

export interface WriteEngine {
  /** Validates `data` (the `data` member of the request body) and creates a document. */
  create(uid: string, data: unknown, options: WriteOptions): Promise<DocumentRef>;
  /** Updates (or, for a new locale, creates) a version of an existing document; null if the document does not exist. */
  update(uid: string, documentId: string, data: unknown, options: WriteOptions): Promise<DocumentRef | null>;
  /** Creates or updates the document of a single type. */
  putSingle(uid: string, data: unknown, options: WriteOptions): Promise<DocumentRef>;
  /** Deletes versions of a document; false when there was nothing to delete. */
  delete(uid: string, documentId: string, options: DeleteOptions): Promise<boolean>;
  /** Deletes the document of a single type; false when there was none. */
  deleteSingle(uid: string, options: DeleteOptions): Promise<boolean>;
}

export type DocumentService = ReadEngine & WriteEngine;
