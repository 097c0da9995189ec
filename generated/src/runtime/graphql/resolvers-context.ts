/**
 * What resolvers work with: the runtime built once per server (the document service the REST API
 * uses too, the bindings, the configuration) and the context of one request (who calls, and the
 * lists derived for its answer).
 */
import type { Access } from '../access.ts';
import type { I18nConfig } from '../config.ts';
import type { QueryBudget } from '../engine/budget.ts';
import type { DocumentService } from '../engine/types.ts';
import type { Targets } from '../query/targets.ts';
import type { ModelSchema } from '../schema.ts';
import type { UploadService } from '../upload/service.ts';
import type { PaginationLimits } from './args-pagination.ts';
import type { GraphQLResolveInfo } from './graphql-js.ts';
import type { UsersGraphql } from './resolvers-users.ts';
import type { BindingIndex } from './schema-index.ts';
import type { DerivedLists } from './selection-lists.ts';
import type { LocaleIdentities } from '../rest/locales.ts';

export interface GraphqlRuntime {
  readonly model: ModelSchema;
  readonly documents: DocumentService;
  readonly uploads: UploadService;
  readonly bindings: BindingIndex;
  readonly targets: Targets;
  readonly graphql: PaginationLimits;
  readonly i18n: I18nConfig;
  /** api.query: a mutation's read-back is measured against it before the write. */
  readonly queryBudget: QueryBudget;
  /** When the locales were loaded: their timestamps (locales live in configuration, not in a table). */
  readonly localesSince: Date;
  /** The ids `capi import` kept for locale codes (rest/locales.ts). */
  readonly localeIdentities: LocaleIdentities;
  /** users-permissions' sign-in (`me`, `login`, ...); absent, those operations are not served. */
  readonly users?: UsersGraphql;
}

export interface GraphqlContext {
  readonly access: Access;
  /** The caller's address (Express' `req.ip`): sign-in attempts are counted per address. */
  readonly address?: string;
  /** Lists of this answer derived in memory (selection-lists.ts). */
  readonly lists: DerivedLists;
}

export type Args = Readonly<Record<string, unknown>>;

export type FieldResolver = (source: unknown, args: Args, context: GraphqlContext, info: GraphQLResolveInfo) => unknown;

export type ObjectResolvers = Record<string, FieldResolver>;
