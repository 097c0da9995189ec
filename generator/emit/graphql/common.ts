/**
 * Types and arguments shared by every content type: publication state, pagination, the error
 * member of dynamic zones, the delete payload, and the argument lists Strapi puts on queries,
 * mutations and nested lists.
 */
import type { ArgumentDef, TypeDef } from './definitions.ts';
import type { GraphqlComponent, GraphqlEntity, GraphqlOwner } from './entities.ts';
import { filtersInputName } from '../../model/graphql-names.ts';
import { LOCALE_SCALAR } from './scalars.ts';

export const PUBLICATION_STATUS = 'PublicationStatus';
export const PUBLICATION_FILTER = 'PublicationFilter';
export const PAGINATION = 'Pagination';
export const PAGINATION_ARG = 'PaginationArg';
export const ERROR_TYPE = 'Error';
export const DELETE_MUTATION_RESPONSE = 'DeleteMutationResponse';

/** Cohorts of documents by publication history (REST `publicationFilter=never-published`, ...). */
export const PUBLICATION_FILTER_VALUES: readonly string[] = [
  'NEVER_PUBLISHED',
  'HAS_PUBLISHED_VERSION',
  'MODIFIED',
  'UNMODIFIED',
  'NEVER_PUBLISHED_DOCUMENT',
  'HAS_PUBLISHED_VERSION_DOCUMENT',
  'PUBLISHED_WITHOUT_DRAFT',
  'PUBLISHED_WITH_DRAFT',
];

export function commonTypes(): TypeDef[] {
  return [
    { kind: 'enum', group: 'common', name: PUBLICATION_STATUS, values: ['DRAFT', 'PUBLISHED'] },
    { kind: 'enum', group: 'common', name: PUBLICATION_FILTER, values: PUBLICATION_FILTER_VALUES },
    {
      kind: 'object',
      group: 'common',
      name: PAGINATION,
      fields: ['total', 'page', 'pageSize', 'pageCount'].map((name) => ({ name, type: 'Int!' })),
    },
    {
      kind: 'input',
      group: 'common',
      name: PAGINATION_ARG,
      fields: ['page', 'pageSize', 'start', 'limit'].map((name) => ({ name, type: 'Int' })),
    },
    // Member of every dynamic-zone union: what an entry whose component cannot be resolved becomes.
    {
      kind: 'object',
      group: 'common',
      name: ERROR_TYPE,
      fields: [
        { name: 'code', type: 'String!' },
        { name: 'message', type: 'String' },
      ],
    },
    { kind: 'object', group: 'common', name: DELETE_MUTATION_RESPONSE, fields: [{ name: 'documentId', type: 'ID!' }] },
  ];
}

export const DOCUMENT_ID_ARG: ArgumentDef = { name: 'documentId', type: 'ID!' };

/**
 * `status` defaults to PUBLISHED on every type, with or without draft & publish (Strapi 5.54
 * declares it everywhere and ignores it where there are no drafts), which is also why create and
 * update publish unless told `status: DRAFT`.
 */
export const STATUS_ARG: ArgumentDef = { name: 'status', type: PUBLICATION_STATUS, defaultValue: 'PUBLISHED' };

/** Deprecated by Strapi in favour of publicationFilter, still served. */
const HAS_PUBLISHED_VERSION_ARG: ArgumentDef = { name: 'hasPublishedVersion', type: 'Boolean' };
const PUBLICATION_FILTER_ARG: ArgumentDef = { name: 'publicationFilter', type: PUBLICATION_FILTER };
export const PUBLICATION_ARGS: readonly ArgumentDef[] = [STATUS_ARG, HAS_PUBLISHED_VERSION_ARG, PUBLICATION_FILTER_ARG];

/** Added after every other argument of a localized type's queries and mutations. */
export const LOCALE_ARG: ArgumentDef = { name: 'locale', type: LOCALE_SCALAR, description: 'The locale to use for the query' };

/** `filters`, `pagination = {}`, `sort = []`: the arguments of every list. */
export function listArgs(typeName: string): ArgumentDef[] {
  return [
    { name: 'filters', type: filtersInputName(typeName) },
    { name: 'pagination', type: PAGINATION_ARG, defaultValue: '{}' },
    { name: 'sort', type: '[String]', defaultValue: '[]' },
  ];
}

/**
 * Arguments of a nested list (to-many relation, multiple media, repeatable component) of the
 * given target: the list arguments, except for a single type, whose lists Strapi leaves bare.
 */
export function nestedListArgs(target: GraphqlEntity | GraphqlComponent): ArgumentDef[] {
  return isSingleType(target) ? [] : listArgs(target.typeName);
}

function isSingleType(owner: GraphqlOwner): boolean {
  return owner.modelType === 'contentType' && owner.kind === 'singleType';
}
