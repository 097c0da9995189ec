/** What the parser is given about the request's type, the model and the reader's permissions. */
import type { I18nConfig, RestConfig } from '../config.ts';
import type { ContentTypeSchema, ModelSchema } from '../schema.ts';
import { Targets } from './targets.ts';

export interface QueryContext {
  readonly schema: ContentTypeSchema;
  readonly model: ModelSchema;
  readonly rest: RestConfig;
  readonly i18n: I18nConfig;
  /** Whether the reader may read entries of a content type (its `find` permission). Default: yes. */
  readonly canRead?: (uid: string) => boolean;
}

/** What the parsers of filters, sort, fields and populate share while walking a query. */
export interface ParseScope {
  readonly targets: Targets;
  readonly canRead: (uid: string) => boolean;
}

export function parseScope(context: QueryContext): ParseScope {
  const canRead = context.canRead ?? (() => true);
  return { targets: new Targets(context.model), canRead };
}
