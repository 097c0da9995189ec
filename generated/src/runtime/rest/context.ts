/** What REST controllers need from the running application. */
import type { AccessResolver } from '../access.ts';
import type { I18nConfig, RestConfig } from '../config.ts';
import type { QueryBudget } from '../engine/budget.ts';
import type { DocumentService } from '../engine/types.ts';
import type { RestExtensions } from '../extensions/pipeline.ts';
import type { UnknownQueryParams } from '../query/unknown-params.ts';
import type { ModelSchema } from '../schema.ts';
import type { HttpCache } from '../cache/http.ts';

export interface RestContext {
  readonly model: ModelSchema;
  readonly documents: DocumentService;
  readonly rest: RestConfig;
  readonly i18n: I18nConfig;
  /** api.query: a write's read-back is measured against it before the write. */
  readonly queryBudget: QueryBudget;
  readonly resolveAccess: AccessResolver;
  /** The project's controllers, routes, policies, middlewares and default queries (src/extensions). */
  readonly extensions?: RestExtensions;
  /** Logs each query parameter the core actions do not read, once per name. */
  readonly unknownParams?: UnknownQueryParams;
  /** config/cache.json's rules for the read routes' answers. */
  readonly cache?: HttpCache;
}
