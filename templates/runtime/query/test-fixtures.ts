/**
 * Shared setup of the query parser's tests (not copied into generated projects: `test-*.ts`):
 * the example model's tables, Strapi's default REST limits and English as the only locale.
 */
import { model } from '../../../test/support/runtime-model.ts';
import type { RestConfig } from '../config.ts';
import { HttpError } from '../errors.ts';
import type { ContentTypeSchema } from '../schema.ts';
import { uploadFileSchema } from '../upload/file-schema.ts';
import { parseListQuery, parseQueryString, type QueryContext } from './params.ts';
import type { ListQuery } from './types.ts';

export { model };

export const ARTICLE = 'api::article.article';
export const PRODUCT = 'api::product.product';
export const PAGE = 'api::page.page';
export const TAG = 'api::tag.tag';

export const REST: RestConfig = { defaultLimit: 25, maxLimit: 100, withCount: true };

export function schemaOf(uid: string): ContentTypeSchema {
  const schema = uid === uploadFileSchema.uid ? uploadFileSchema : model.contentTypes[uid];
  if (schema === undefined) throw new Error(`no content type ${uid} in the example model`);
  return schema;
}

export function queryContext(uid: string, options: { canRead?: (uid: string) => boolean; rest?: RestConfig } = {}): QueryContext {
  return {
    schema: schemaOf(uid),
    model,
    rest: options.rest ?? REST,
    i18n: { defaultLocale: 'en', locales: [{ code: 'en', name: 'en' }] },
    canRead: options.canRead ?? (() => true),
  };
}

/** Parses a REST query string for a list of `uid`, as the controller does. */
export function listQuery(uid: string, query: string, canRead?: (uid: string) => boolean): ListQuery {
  return parseListQuery(parseQueryString(query), queryContext(uid, canRead === undefined ? {} : { canRead }));
}

/** The Strapi error body `run` throws (as sent to the client); fails when it does not throw. */
export function failure(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return JSON.parse(JSON.stringify(error.toBody()));
    throw error;
  }
  throw new Error('expected an error');
}
