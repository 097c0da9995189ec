/**
 * The i18n plugin's read-only queries, over the locales of config/plugins.json (the same entries
 * `GET /api/i18n/locales` lists), all behind `plugin::i18n.locales.listLocales`:
 *
 *   i18NLocale(documentId)                          one locale, or null
 *   i18NLocales(filters, sort, pagination)          filtered, sorted and paginated in memory
 *   i18NLocales_connection(...)                     the same, with pageInfo
 *
 * The list is a handful of configured entries, so it is filtered in memory with the engine's
 * semantics (selection-match.ts) rather than read from a table that does not exist.
 */
import { authorize } from '../access.ts';
import type { Entity } from '../engine/types.ts';
import { listLocalesAction } from '../permissions.ts';
import type { Target } from '../query/targets.ts';
import { localeEntities } from '../rest/locales.ts';
import type { Field } from '../schema.ts';
import { graphqlFilters } from './args-filters.ts';
import { pageInfo, paginationWindow, windowOf } from './args-pagination.ts';
import { graphqlSort } from './args-sort.ts';
import type { Args, GraphqlContext, GraphqlRuntime, ObjectResolvers } from './resolvers-context.ts';
import { argsContext } from './resolvers-read.ts';
import { filterRows, sortRows } from './selection-match.ts';

export const LOCALE_UID = 'plugin::i18n.locale';

function text(column: string): Field {
  return { kind: 'scalar', type: 'string', column, required: false, private: false, localized: false, unique: false };
}

/** The locales as a type rows can be filtered and sorted on: `name` and `code`, and the system fields. */
const localeTarget: Target = { kind: 'contentType', uid: LOCALE_UID, attributes: { name: text('name'), code: text('code') }, localized: false };

export function localeQueryResolvers(runtime: GraphqlRuntime): ObjectResolvers {
  const all = (): Entity[] => localeEntities(runtime.i18n, runtime.localesSince, runtime.localeIdentities).map((locale) => ({ ...locale }));
  const list = (args: Args, context: GraphqlContext) => {
    const argsCtx = argsContext(runtime, context);
    const filter = graphqlFilters(args['filters'], localeTarget, argsCtx);
    const sort = graphqlSort(args['sort'], localeTarget, argsCtx);
    const window = paginationWindow(args['pagination'], runtime.graphql);
    const match = { targets: runtime.targets };
    const rows = sortRows(match, localeTarget, filterRows(match, localeTarget, all(), filter), sort);
    return { nodes: windowOf(rows, window), pageInfo: pageInfo(window, rows.length) };
  };
  return {
    i18NLocale: (_source, args, context) => {
      authorize(context.access, listLocalesAction);
      return all().find((locale) => locale['documentId'] === args['documentId']) ?? null;
    },
    i18NLocales: (_source, args, context) => {
      authorize(context.access, listLocalesAction);
      return list(args, context).nodes;
    },
    i18NLocales_connection: (_source, args, context) => {
      authorize(context.access, listLocalesAction);
      return list(args, context);
    },
  };
}
