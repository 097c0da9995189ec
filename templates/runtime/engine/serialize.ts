/**
 * Rows → entities in Strapi 5's REST shape. A projection is planned once per (type, fields,
 * populated attributes): the columns to select (only those returned, plus what populating
 * needs) and the ordered slots of the output object, so building an entity is one pass over an
 * array with no per-row decisions beyond value decoding.
 *
 * Populated attributes get their empty value here (null for to-one, [] for to-many, `{ count: 0 }`
 * for a count) in schema
 * order; loaders then fill them in. Attributes not populated are absent, as in Strapi.
 */
import { SCALAR_TYPES } from '../../contract/scalar-types.ts';
import type { Dialect, Row } from '../database.ts';
import type { Entity } from './types.ts';
import type { ScalarColumn, TypeInfo } from './registry.ts';
import { column, quote } from './sql.ts';
import { decoder, type Decoder } from './values.ts';

export interface PopulatedKey {
  readonly key: string;
  readonly many: boolean;
  /** `populate[key][count]=true`: the value is `{ count }`, zero until the loader fills it in. */
  readonly count?: boolean;
}

export interface ProjectionSpec {
  /** Scalars to return (attributes or system fields); undefined for all. `id`/`documentId` always come. */
  readonly fields: readonly string[] | undefined;
  /** Populated attributes (and `localizations`), with the shape of their empty value. */
  readonly populated: readonly PopulatedKey[];
  /** Dynamic zone entries start with `__component`. */
  readonly component?: string;
}

export interface Projection {
  /** The SELECT list for rows at `alias`. Localized types add `__locale`, which loaders read. */
  select(alias: string): string;
  /**
   * The returned columns as expressions for a JSON array constructor (json_array /
   * json_build_array), in a form JSON keeps exactly (bigintegers as text); `buildFrom` reads the
   * parsed array back. Positions instead of keys: half the bytes to build and to parse.
   */
  jsonValues(alias: string): readonly string[];
  /** The entity from `jsonValues`' parsed array, starting at `offset`. */
  buildFrom(values: readonly unknown[], offset: number): Entity;
  build(row: Row): Entity;
  /**
   * The entity's keys in output order with, for each returned column, the SQL text of its JSON
   * value (Dialect.json.text); populated attributes are left to the caller (rendered.ts).
   * Undefined when the database does not write JSON text.
   */
  renderSlots(alias: string): readonly RenderSlot[] | undefined;
}

/** One key of an entity rendered in SQL: a column's JSON text, a populated attribute, or a constant. */
export type RenderSlot =
  | { readonly kind: 'value'; readonly key: string; readonly sql: string }
  | { readonly kind: 'populated'; readonly key: string }
  | { readonly kind: 'constant'; readonly key: string; readonly value: string };

/** Column alias of the row's locale, selected on localized types whether returned or not. */
export const LOCALE_KEY = '__locale';

type Slot =
  | { readonly kind: 'value'; readonly key: string; readonly decode: Decoder | undefined }
  | { readonly kind: 'empty'; readonly key: string; readonly many: boolean; readonly count: boolean }
  | { readonly kind: 'constant'; readonly key: string; readonly value: string };

export function createProjection(dialect: Dialect, type: TypeInfo, spec: ProjectionSpec): Projection {
  const wanted = spec.fields === undefined ? undefined : new Set(spec.fields);
  const returned = (scalar: ScalarColumn): boolean => !scalar.hidden && (wanted === undefined || wanted.has(scalar.name));
  const populated = new Map(spec.populated.map((p) => [p.key, p]));

  const selected: ScalarColumn[] = [];
  const slots: Slot[] = [];
  const value = (scalar: ScalarColumn): void => {
    selected.push(scalar);
    slots.push({ kind: 'value', key: scalar.name, decode: decoder(dialect, scalar.type) });
  };

  if (spec.component !== undefined) slots.push({ kind: 'constant', key: '__component', value: spec.component });
  value(type.columns.get('id')!);
  if (!type.isComponent) value(type.columns.get('documentId')!);
  for (const name of Object.keys(type.attributes)) {
    const scalar = type.columns.get(name);
    if (scalar !== undefined) {
      if (returned(scalar)) value(scalar);
      continue;
    }
    const p = populated.get(name);
    if (p !== undefined) slots.push({ kind: 'empty', key: name, many: p.many, count: p.count === true });
  }
  for (const scalar of type.trailingSystem) if (returned(scalar)) value(scalar);
  const localizations = type.attributes['localizations'] === undefined ? populated.get('localizations') : undefined;
  if (localizations !== undefined) slots.push({ kind: 'empty', key: 'localizations', many: true, count: localizations.count === true });

  const selects = new Map<string, string>();
  const values = new Map<string, readonly string[]>();
  const rendered = new Map<string, readonly RenderSlot[]>();
  const text = dialect.json.text;
  return {
    select(alias) {
      let list = selects.get(alias);
      if (list === undefined) {
        const items = selected.map((scalar) => `${selectExpr(dialect, alias, scalar)} AS ${quote(scalar.name)}`);
        if (type.localized) items.push(`${column(alias, 'locale')} AS ${quote(LOCALE_KEY)}`);
        list = items.join(', ');
        selects.set(alias, list);
      }
      return list;
    },
    jsonValues(alias) {
      let list = values.get(alias);
      if (list === undefined) {
        list = selected.map((scalar) => jsonExpr(dialect, alias, scalar));
        values.set(alias, list);
      }
      return list;
    },
    renderSlots(alias) {
      if (text === undefined) return undefined;
      let list = rendered.get(alias);
      if (list === undefined) {
        let next = 0;
        list = slots.map((slot): RenderSlot => {
          if (slot.kind === 'empty') return { kind: 'populated', key: slot.key };
          if (slot.kind === 'constant') return slot;
          const scalar = selected[next++]!;
          return { kind: 'value', key: slot.key, sql: text.values[SCALAR_TYPES[scalar.type].serialize](column(alias, scalar.column)) };
        });
        rendered.set(alias, list);
      }
      return list;
    },
    buildFrom(row, offset) {
      const entity: Entity = {};
      let next = offset;
      for (const slot of slots) {
        switch (slot.kind) {
          case 'value': {
            const raw = row[next++];
            entity[slot.key] = slot.decode === undefined ? (raw ?? null) : slot.decode(raw);
            break;
          }
          case 'empty':
            entity[slot.key] = slot.count ? { count: 0 } : slot.many ? [] : null;
            break;
          case 'constant':
            entity[slot.key] = slot.value;
            break;
        }
      }
      return entity;
    },
    build(row) {
      const entity: Entity = {};
      for (const slot of slots) {
        switch (slot.kind) {
          case 'value': {
            const raw = row[slot.key];
            entity[slot.key] = slot.decode === undefined ? (raw ?? null) : slot.decode(raw);
            break;
          }
          case 'empty':
            entity[slot.key] = slot.count ? { count: 0 } : slot.many ? [] : null;
            break;
          case 'constant':
            entity[slot.key] = slot.value;
            break;
        }
      }
      return entity;
    },
  };
}

/** SQLite hands integers to JavaScript as doubles: bigintegers are read as text to keep every digit. */
function selectExpr(dialect: Dialect, alias: string, scalar: ScalarColumn): string {
  const expr = column(alias, scalar.column);
  return travelsAsText(scalar) ? dialect.selectBigInteger(expr) : expr;
}

/** JSON numbers are doubles once parsed: bigintegers travel as text on both databases. */
function jsonExpr(dialect: Dialect, alias: string, scalar: ScalarColumn): string {
  return travelsAsText(scalar) ? dialect.textCast(column(alias, scalar.column)) : column(alias, scalar.column);
}

/** Bigintegers are served as digit strings (the contract's `serialize`). */
function travelsAsText(scalar: ScalarColumn): boolean {
  return SCALAR_TYPES[scalar.type].serialize === 'biginteger';
}
