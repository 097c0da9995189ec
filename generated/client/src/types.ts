/**
 * The type machinery of a generated client: from a registry of the project's types (emitted as
 * src/schema.ts) and a query literal, the exact shape the REST API answers.
 *
 * - A registry maps every uid (content types, components, `plugin::upload.file`) to a TypeShape:
 *   the scalars returned by default, the ids every entry carries, and what can be populated.
 * - `Entry<R, Uid, Query>` is one entry as answered for that query: `fields` narrows the scalars
 *   (ids always stay), and a relation, media, component or dynamic zone is a key of the entry
 *   exactly when `populate` asks for it (`'*'`, a name, a dotted path, a list of them, or an
 *   object with nested `populate`/`fields`/`filters`/`sort` and dynamic-zone `on` fragments,
 *   which also select the components answered).
 * - Private attributes and passwords are not in the registry, so they can appear nowhere.
 */

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** What populating an attribute reaches: a type of the registry, one or many. */
export interface Link {
  readonly target: string;
  readonly many: boolean;
}

export interface TypeShape {
  /** Fields every entry carries whatever `fields` selects. */
  readonly ids: object;
  /** Scalars returned by default (and selectable with `fields`), with their response types. */
  readonly scalars: object;
  /** Relations and media fields: populated, they hold entries of `target`. */
  readonly relations: { readonly [name: string]: Link };
  /** Components: populated, they hold instances of the component `target`. */
  readonly components: { readonly [name: string]: Link };
  /** Dynamic zones: the union of the component uids an entry may be. */
  readonly zones: { readonly [name: string]: string };
}

export type Registry = { readonly [uid: string]: TypeShape };

type Shape<R extends Registry, U> = U extends keyof R ? R[U] : never;

/** Flattens intersections so that editors and error messages show plain objects. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

// ---------------------------------------------------------------------------------------------
// Query parameters (the constraint side: what may be written)
// ---------------------------------------------------------------------------------------------

type ScalarName<R extends Registry, U> = keyof Shape<R, U>['scalars'] & string;
type PopulatableName<R extends Registry, U> = (keyof Shape<R, U>['relations'] | keyof Shape<R, U>['components'] | keyof Shape<R, U>['zones']) & string;

type FieldName<R extends Registry, U> = ScalarName<R, U> | (keyof Shape<R, U>['ids'] & string);

/**
 * `fields`: scalar names (a comma list in one string is accepted too), or `'*'`. `id` and
 * `documentId` are always answered: `['id']` asks for nothing else.
 */
export type Fields<R extends Registry, U> = '*' | FieldName<R, U> | readonly (FieldName<R, U> | '*')[] | `${FieldName<R, U>},${string}`;

type SortKey<R extends Registry, U> = ScalarName<R, U> | (keyof Shape<R, U>['ids'] & string);
type SortDirection = 'asc' | 'desc' | 'ASC' | 'DESC';
type SortItem<R extends Registry, U> = SortKey<R, U> | `${SortKey<R, U>}:${SortDirection}` | { readonly [K in SortKey<R, U>]?: SortDirection };
/** `sort`: `'title'`, `'title:desc'`, a list of them, or `{ title: 'desc' }`. */
export type Sort<R extends Registry, U> = SortItem<R, U> | readonly SortItem<R, U>[];

export type Pagination = { readonly page?: number; readonly pageSize?: number; readonly withCount?: boolean } | { readonly start?: number; readonly limit?: number; readonly withCount?: boolean };

/** Operators on one scalar value (docs/rest-api.md, "Filters"). */
export interface ScalarOperators<T> {
  readonly $eq?: T | null;
  readonly $ne?: T | null;
  readonly $lt?: T;
  readonly $lte?: T;
  readonly $gt?: T;
  readonly $gte?: T;
  readonly $in?: readonly T[];
  readonly $notIn?: readonly T[];
  readonly $between?: readonly [T, T];
  readonly $null?: boolean;
  readonly $notNull?: boolean;
  readonly $not?: ScalarOperators<T>;
  readonly $and?: readonly ScalarOperators<T>[];
  readonly $or?: readonly ScalarOperators<T>[];
}

/** Text operators, on attributes whose value is text. */
export interface TextOperators extends ScalarOperators<string> {
  readonly $eqi?: string;
  readonly $nei?: string;
  readonly $contains?: string;
  readonly $notContains?: string;
  readonly $containsi?: string;
  readonly $notContainsi?: string;
  readonly $startsWith?: string;
  readonly $startsWithi?: string;
  readonly $endsWith?: string;
  readonly $endsWithi?: string;
  readonly $not?: TextOperators;
  readonly $and?: readonly TextOperators[];
  readonly $or?: readonly TextOperators[];
}

/** The filter of one scalar: a value (`$eq`), a list (`$in`) or operators. */
export type ScalarFilter<V> = [NonNullable<V>] extends [string]
  ? NonNullable<V> | readonly NonNullable<V>[] | TextOperators
  : [NonNullable<V>] extends [number | boolean]
    ? NonNullable<V> | readonly NonNullable<V>[] | ScalarOperators<NonNullable<V>>
    : ScalarOperators<JsonValue>;

type Filterable<R extends Registry, U> = Shape<R, U>['ids'] & Shape<R, U>['scalars'];

/** `filters`: per attribute and operator, through relations and components, with `$and`/`$or`/`$not`. */
export type Filters<R extends Registry, U> = {
  readonly [K in keyof Filterable<R, U>]?: ScalarFilter<Filterable<R, U>[K]>;
} & {
  readonly [K in keyof Shape<R, U>['relations']]?: Filters<R, Shape<R, U>['relations'][K]['target']> | ScalarOperators<number>;
} & {
  readonly [K in keyof Shape<R, U>['components']]?: Filters<R, Shape<R, U>['components'][K]['target']>;
} & {
  readonly $and?: readonly Filters<R, U>[];
  readonly $or?: readonly Filters<R, U>[];
  readonly $not?: Filters<R, U>;
};

/** What may stand under a populated relation or component. */
export interface NestedQuery<R extends Registry, U> {
  readonly populate?: Populate<R, U>;
  readonly fields?: Fields<R, U>;
  readonly filters?: Filters<R, U>;
  readonly sort?: Sort<R, U>;
}

type ZoneFragment<R extends Registry, C> = true | '*' | NestedQuery<R, C>;

/** What may stand under a populated dynamic zone: everything, or per component (`on`). */
export type ZoneQuery<R extends Registry, Zone extends string> = { readonly on: { readonly [C in Zone]?: ZoneFragment<R, C> } } | { readonly populate: '*' | true };

type PopulateValue<R extends Registry, U, K> = K extends keyof Shape<R, U>['zones']
  ? boolean | '*' | ZoneQuery<R, Shape<R, U>['zones'][K]>
  : K extends keyof Shape<R, U>['relations']
    ? boolean | '*' | NestedQuery<R, Shape<R, U>['relations'][K]['target']>
    : K extends keyof Shape<R, U>['components']
      ? boolean | '*' | NestedQuery<R, Shape<R, U>['components'][K]['target']>
      : never;

type PopulatePath<R extends Registry, U> = PopulatableName<R, U> | `${PopulatableName<R, U>}.${string}`;

/** `populate`: `'*'`, a name or dotted path, a list of them, or an object per attribute. */
export type Populate<R extends Registry, U> = '*' | PopulatePath<R, U> | readonly PopulatePath<R, U>[] | { readonly [K in PopulatableName<R, U>]?: PopulateValue<R, U, K> };

/** The query of a read (`find`, `findOne`). */
export interface ReadQuery<R extends Registry, U> {
  readonly filters?: Filters<R, U>;
  readonly populate?: Populate<R, U>;
  readonly fields?: Fields<R, U>;
  readonly sort?: Sort<R, U>;
  readonly pagination?: Pagination;
  readonly status?: 'draft' | 'published';
  readonly locale?: string;
  /** Full-text search over the type's text attributes. */
  readonly _q?: string;
}

/** The query of a write: what the answer holds (`populate`, `fields`), in which version. */
export interface WriteQuery<R extends Registry, U> {
  readonly populate?: Populate<R, U>;
  readonly fields?: Fields<R, U>;
  readonly status?: 'draft' | 'published';
  readonly locale?: string;
}

// ---------------------------------------------------------------------------------------------
// Results (the computed side: what the server answers for a given query)
// ---------------------------------------------------------------------------------------------

type Split<S extends string> = S extends `${infer Head},${infer Rest}` ? Head | Split<Rest> : S;

type FieldNames<F> = F extends string ? Split<F> : F extends readonly (infer N)[] ? N : never;

/** An empty list is not sent (qs writes nothing for it), so it selects everything. */
type SelectedScalars<S extends TypeShape, Q> = Q extends { readonly fields: infer F }
  ? F extends readonly []
    ? S['scalars']
    : '*' extends FieldNames<F>
      ? S['scalars']
      : Pick<S['scalars'], FieldNames<F> & keyof S['scalars']>
  : S['scalars'];

/** A nested query for a populated attribute; `true`/`'*'` mean "the target as is". */
type SubQuery<V> = V extends object ? V : {};

/** Part of a dotted-path list below `K`: `['author.avatar', 'tags']` below author is `'avatar'`. */
type Below<P, K extends string> = P extends `${K}.${infer Rest}` ? Rest : never;
type Head<P> = P extends `${infer H}.${string}` ? H : P;

type PathsQuery<P> = [P] extends [never] ? {} : { readonly populate: readonly P[] };

/** Names populated by a list of paths: `['author.avatar', 'tags']` → author (with avatar) and tags. */
type PathsPopulated<R extends Registry, U, P extends string> = '*' extends P ? AllPopulated<R, U> : { [K in Head<P> & PopulatableName<R, U>]: Value<R, U, K, PathsQuery<Below<P, K>>> };

type AllPopulated<R extends Registry, U> = { [K in PopulatableName<R, U>]: Value<R, U, K, {}> };

type ObjectPopulated<R extends Registry, U, P> = {
  [K in keyof P & PopulatableName<R, U> as P[K] extends false | undefined ? never : K]: Value<R, U, K, SubQuery<P[K]>>;
};

type PopulateOf<Q> = Q extends { readonly populate: infer P } ? P : undefined;

type Populated<R extends Registry, U, P> = P extends undefined
  ? {}
  : P extends string
    ? PathsPopulated<R, U, Split<P>>
    : P extends readonly (infer Item extends string)[]
      ? PathsPopulated<R, U, Item>
      : P extends object
        ? ObjectPopulated<R, U, P>
        : {};

/**
 * One entry of a dynamic zone: its `__component` and the component's fields. With `on`, only the
 * listed components are answered (the server leaves the others out), each as its fragment asks.
 */
type ZoneEntry<R extends Registry, C, Q> = C extends string
  ? Q extends { readonly on: infer On }
    ? C extends keyof On
      ? Simplify<{ __component: C } & Entry<R, C, SubQuery<On[C]>>>
      : never
    : Simplify<{ __component: C } & Entry<R, C, ZoneInner<Q>>>
  : never;

/** `populate: { blocks: { populate: '*' } }` populates every component one level down. */
type ZoneInner<Q> = Q extends { readonly populate: infer P } ? { readonly populate: P } : {};

type Value<R extends Registry, U, K, Q> = K extends keyof Shape<R, U>['zones']
  ? ZoneEntry<R, Shape<R, U>['zones'][K], Q>[]
  : K extends keyof Shape<R, U>['relations']
    ? Linked<R, Shape<R, U>['relations'][K], Q>
    : K extends keyof Shape<R, U>['components']
      ? Linked<R, Shape<R, U>['components'][K], Q>
      : never;

type Linked<R extends Registry, L, Q> = L extends { readonly target: infer T; readonly many: infer M } ? (M extends true ? Entry<R, T, Q>[] : Entry<R, T, Q> | null) : never;

/** One entry of type `U` as the REST API answers `query`. */
export type Entry<R extends Registry, U, Q = {}> = Simplify<Shape<R, U>['ids'] & SelectedScalars<Shape<R, U>, Q> & Populated<R, U, PopulateOf<Q>>>;

// ---------------------------------------------------------------------------------------------
// Envelopes
// ---------------------------------------------------------------------------------------------

export interface PagePagination {
  readonly page: number;
  readonly pageSize: number;
  readonly pageCount: number;
  readonly total: number;
}

export interface OffsetPagination {
  readonly start: number;
  readonly limit: number;
  readonly total: number;
}

/** `GET /api/<plural>`: the entries and how they were paginated. */
export interface ListResponse<T> {
  readonly data: T[];
  readonly meta: { readonly pagination: PagePagination | OffsetPagination };
}

/** Any answer about one document. */
export interface DocumentResponse<T> {
  readonly data: T;
  readonly meta: Record<string, never>;
}

/** Strapi's error envelope. */
export interface ErrorEnvelope {
  readonly data: null;
  readonly error: {
    readonly status: number;
    readonly name: string;
    readonly message: string;
    readonly details: JsonValue;
  };
}

// ---------------------------------------------------------------------------------------------
// Inputs of create and update (the emitted per-type input interfaces use these)
// ---------------------------------------------------------------------------------------------

/** A document by documentId, optionally in a locale and status; or a version row by id. */
export type DocumentRef = string | number | { readonly documentId: string; readonly locale?: string; readonly status?: 'draft' | 'published' } | { readonly id: number };

export type Position = { readonly before: string } | { readonly after: string } | { readonly start: true } | { readonly end: true };

export type ConnectRef = DocumentRef | { readonly documentId: string; readonly locale?: string; readonly status?: 'draft' | 'published'; readonly position?: Position };

/** A to-one relation: a target, null, or `{ connect }`/`{ set }` of one target. */
export type ToOneInput =
  | DocumentRef
  | null
  | { readonly connect: ConnectRef | readonly [ConnectRef] }
  | { readonly set: DocumentRef | readonly [DocumentRef] | null }
  | { readonly disconnect: DocumentRef | readonly DocumentRef[] };

/** A to-many relation: its targets in order, or `{ connect, disconnect, set }`. */
export type ToManyInput =
  | readonly DocumentRef[]
  | DocumentRef
  | { readonly set: readonly DocumentRef[] }
  | { readonly connect?: readonly ConnectRef[] | ConnectRef; readonly disconnect?: readonly DocumentRef[] | DocumentRef; readonly options?: { readonly strict?: boolean } };

/** A file of the media library, by id. */
export type MediaRef = number | { readonly id: number };

export type SingleMediaInput = MediaRef | null;

export type MultipleMediaInput = readonly MediaRef[] | null | { readonly connect?: readonly MediaRef[]; readonly disconnect?: readonly MediaRef[]; readonly set?: readonly MediaRef[] };

/** A component instance in a write: its fields, and its `id` to update it in place. */
export type ComponentInput<T> = T & { readonly id?: number };

/** One entry of a dynamic zone in a write. */
export type ZoneInput<Inputs> = { [C in keyof Inputs & string]: ComponentInput<Inputs[C]> & { readonly __component: C } }[keyof Inputs & string];
