/**
 * The document service in Strapi's query language, for project code: `app.query(uid)` takes the
 * same `filters`, `populate`, `fields`, `sort`, `pagination`, `status` and `locale` as the REST
 * query string (as objects), checked the same way, like Strapi's `strapi.documents(uid)`.
 */
import type { AppConfig } from '../config.ts';
import type { DocumentService, Entity, ListResult } from '../engine/types.ts';
import { parseListQuery, parseReadQuery } from '../query/params.ts';
import type { ModelSchema } from '../schema.ts';

export interface TypeQuery {
  findMany(query?: Record<string, unknown>): Promise<ListResult>;
  findOne(documentId: string, query?: Record<string, unknown>): Promise<Entity | null>;
  /** The document of a single type. */
  findFirst(query?: Record<string, unknown>): Promise<Entity | null>;
}

export function typeQuery(documents: DocumentService, model: ModelSchema, config: AppConfig, uid: string): TypeQuery {
  const schema = model.contentTypes[uid];
  if (schema === undefined) throw new Error(`app.query: ${uid} is not a content type of the model`);
  const context = { schema, model, rest: config.api.rest, i18n: config.plugins.i18n };
  return {
    findMany: (query = {}) => documents.findMany(uid, parseListQuery(query, context)),
    findOne: (documentId, query = {}) => documents.findOne(uid, documentId, parseReadQuery(query, context)),
    findFirst: (query = {}) => documents.findSingle(uid, parseReadQuery(query, context)),
  };
}
