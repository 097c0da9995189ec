/**
 * The validated, normalized form of a content API query: what the REST query string and GraphQL
 * arguments both become before the engine plans SQL. Every attribute named here exists, is not
 * private, and is of the kind its position requires; every `*` has been expanded; every filter
 * value has the JavaScript type of its attribute. The engine never re-validates.
 */

import type { FilterScalar, FilterValue, Operator } from '../../contract/operators.ts';

/** Operators and filter values are the contract's (OPERATORS). */
export type { FilterScalar, FilterValue, Operator };

/** Which version of each document a read returns. */
export type Status = 'draft' | 'published';

/**
 * A filter over rows of one type (content type, component or media file).
 * - `condition`: a scalar attribute, or a system field (`id`, `documentId`, `createdAt`,
 *   `updatedAt`, `publishedAt`, `locale`), compared with an operator. For `in`/`notIn` the
 *   value is an array, for `between` a pair, for `null`/`notNull` a boolean.
 * - `nested`: a relation, media or component attribute; true when at least one related row
 *   matches `filter` (SQL EXISTS), as Strapi does.
 */
export type Filter =
  | { readonly kind: 'and'; readonly filters: readonly Filter[] }
  | { readonly kind: 'or'; readonly filters: readonly Filter[] }
  | { readonly kind: 'not'; readonly filter: Filter }
  | { readonly kind: 'condition'; readonly attribute: string; readonly operator: Operator; readonly value: FilterValue }
  | { readonly kind: 'nested'; readonly attribute: string; readonly filter: Filter };

/** `path` walks to-one or to-many relations and components to a scalar, e.g. ['author', 'name']. */
export interface SortItem {
  readonly path: readonly string[];
  readonly direction: 'asc' | 'desc';
}

/** Pagination of a root list, with defaults and maxima already applied. */
export type Pagination =
  | { readonly kind: 'page'; readonly page: number; readonly pageSize: number; readonly withCount: boolean }
  | { readonly kind: 'offset'; readonly start: number; readonly limit: number; readonly withCount: boolean };

/** What to read of the rows reached through one populated attribute. */
export interface PopulateNode {
  /** Scalar attributes to return; undefined means all of them. `id`/`documentId` always come. */
  readonly fields?: readonly string[];
  /** Which related rows (or component entries) to return. */
  readonly filters?: Filter;
  /** Their order; default is link (or entry) order. Dynamic zone entries keep the zone's order. */
  readonly sort?: readonly SortItem[];
  /** Relations and components: `{ count: N }` of the rows `filters` keeps, instead of the rows. */
  readonly count?: boolean;
  /** Relations and components: attributes of the related rows to populate in turn. */
  readonly populate?: PopulateTree;
  /**
   * Dynamic zones only: the component UIDs whose entries are returned, each with what to read
   * of it. Entries of a component not listed here are dropped, as Strapi does with `on`. Without
   * `on` in the query, the parser lists every component of the zone.
   */
  readonly on?: Readonly<Record<string, PopulateNode>>;
}

/** Populated attributes by name. Absent attributes are not populated (and not returned). */
export type PopulateTree = Readonly<Record<string, PopulateNode>>;

/** `publicationFilter` / `hasPublishedVersion`, Strapi's draft-and-publish refinements. */
export type PublicationFilter = 'never-published' | 'has-published-version' | 'modified' | 'unmodified' | 'published-without-draft' | 'published-with-draft';

/**
 * The root's publication refinements, applied to the draft & publish targets of its relations
 * too: Strapi's GraphQL plugin passes a root query's `publicationFilter` / `hasPublishedVersion`
 * to every relation it loads. REST populate does not (Strapi's document service leaves them out).
 */
export interface RelationPublication {
  readonly publicationFilter?: PublicationFilter;
  readonly hasPublishedVersion?: boolean;
}

export interface ReadQuery {
  readonly fields?: readonly string[];
  readonly filters?: Filter;
  /** `_q`: text that must occur in a searchable column (engine/search.ts); never empty. */
  readonly search?: string;
  readonly populate: PopulateTree;
  readonly status: Status;
  /** A locale code, `'*'` for every locale, or undefined on types without i18n. */
  readonly locale?: string;
  readonly publicationFilter?: PublicationFilter;
  readonly hasPublishedVersion?: boolean;
  /** Set by GraphQL: relations follow the refinements above (RelationPublication). */
  readonly relationPublication?: RelationPublication;
}

export interface ListQuery extends ReadQuery {
  readonly sort: readonly SortItem[];
  readonly pagination: Pagination;
}
