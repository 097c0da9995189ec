/**
 * Walking from a row to the rows one relation, component or media attribute reaches, as SQL
 * tables with join conditions. Filters wrap a walk in EXISTS, sorts in a correlated MIN/MAX
 * subquery. Relation targets are selected like populated ones: the root's status, and for a
 * localized target the locale of the row it is reached from.
 */
import type { Dialect, SqlValue } from '../database.ts';
import type { Status } from '../query/types.ts';
import type { Field } from '../schema.ts';
import { FILE_LINK_TABLE, UPLOAD_FILE_UID } from '../upload/file-schema.ts';
import type { Registry, TypeInfo } from './registry.ts';
import { and, column, fragment, joinFragments, quote, type Fragment } from './sql.ts';
import { statusCondition } from './versions.ts';

/** Rows of one type under an alias, as a filter or sort sees them. */
export interface Scope {
  readonly type: TypeInfo;
  readonly alias: string;
  /**
   * What a localized relation target reached from these rows must have as locale: the rows' own
   * locale column, the root query's locale, or undefined for any locale.
   */
  readonly locale: Fragment | undefined;
}

/** What planning one statement needs; `alias()` hands out names unique within the statement. */
export interface PlanContext {
  readonly dialect: Dialect;
  readonly registry: Registry;
  readonly status: Status;
  /** The root query's locale when it names one (not `'*'`). */
  readonly rootLocale: string | undefined;
  alias(prefix: string): string;
}

export function createPlanContext(dialect: Dialect, registry: Registry, status: Status, rootLocale: string | undefined): PlanContext {
  let next = 0;
  return { dialect, registry, status, rootLocale, alias: (prefix) => `${prefix}${++next}` };
}

/** The locale requirement that rows of `type` at `alias` pass on to localized targets. */
export function scopeLocale(ctx: PlanContext, type: TypeInfo, alias: string): Fragment | undefined {
  if (type.localized) return fragment(column(alias, 'locale'));
  return ctx.rootLocale === undefined ? undefined : fragment('?', [ctx.rootLocale]);
}

export interface JoinedTable {
  readonly table: string;
  readonly alias: string;
  /** For the first table of a walk, the condition that ties it to the outer row. */
  readonly on: Fragment;
}

export interface Hop {
  readonly tables: readonly JoinedTable[];
  readonly scope: Scope;
}

/** One step from `scope` through the attribute `name` (relation, component or media). */
export function hop(ctx: PlanContext, scope: Scope, name: string): Hop {
  const field: Field | undefined = scope.type.attributes[name];
  if (field === undefined) throw new Error(`read engine: ${scope.type.uid} has no attribute ${name}`);
  const from = scope.alias;
  switch (field.kind) {
    case 'relation': {
      const target = ctx.registry.type(field.target);
      const l = ctx.alias('l');
      const t = ctx.alias('t');
      const targetConditions: Fragment[] = [
        field.owner
          ? fragment(`${column(t, 'document_id')} = ${column(l, 'target_document_id')}`)
          : fragment(`${column(t, 'id')} = ${column(l, 'entity_id')}`),
        statusCondition(target, t, ctx.status),
      ];
      if (target.localized && scope.locale !== undefined) {
        targetConditions.push(joinFragments([fragment(`${column(t, 'locale')} = `), scope.locale], ''));
      }
      const link = field.owner
        ? fragment(`${column(l, 'entity_id')} = ${column(from, 'id')}`)
        : fragment(`${column(l, 'target_document_id')} = ${column(from, 'document_id')}`);
      return {
        tables: [
          { table: field.linkTable, alias: l, on: link },
          { table: target.table, alias: t, on: and(targetConditions) },
        ],
        scope: { type: target, alias: t, locale: scopeLocale(ctx, target, t) },
      };
    }
    case 'component': {
      const component = ctx.registry.type(field.component);
      const c = ctx.alias('c');
      const owner = fragment(
        `${column(c, 'entity_type')} = ? AND ${column(c, 'entity_field')} = ? AND ${column(c, 'entity_id')} = ${column(from, 'id')}`,
        [scope.type.uid, name],
      );
      return { tables: [{ table: component.table, alias: c, on: owner }], scope: { type: component, alias: c, locale: scope.locale } };
    }
    case 'media': {
      const files = ctx.registry.type(UPLOAD_FILE_UID);
      const m = ctx.alias('m');
      const f = ctx.alias('f');
      const link = fragment(
        `${column(m, 'related_type')} = ? AND ${column(m, 'field')} = ? AND ${column(m, 'related_id')} = ${column(from, 'id')}`,
        [scope.type.uid, name],
      );
      return {
        tables: [
          { table: FILE_LINK_TABLE, alias: m, on: link },
          { table: files.table, alias: f, on: fragment(`${column(f, 'id')} = ${column(m, 'file_id')}`) },
        ],
        scope: { type: files, alias: f, locale: undefined },
      };
    }
    default:
      throw new Error(`read engine: cannot walk through ${field.kind} attribute ${scope.type.uid}.${name}`);
  }
}

/**
 * `FROM first JOIN second ON ... JOIN ...` of a walk, and the condition tying its first table
 * to the outer row (for the subquery's WHERE).
 */
export function walkSource(tables: readonly JoinedTable[]): { readonly from: Fragment; readonly correlation: Fragment } {
  const [first, ...rest] = tables;
  if (first === undefined) throw new Error('read engine: empty walk');
  const parts: Fragment[] = [fragment(`${quote(first.table)} ${first.alias}`)];
  for (const table of rest) {
    parts.push(fragment(`JOIN ${quote(table.table)} ${table.alias} ON `), table.on);
  }
  return { from: joinFragmentsTight(parts), correlation: first.on };
}

/** Joins fragments with single spaces, except after an `ON ` opener that already has one. */
function joinFragmentsTight(parts: readonly Fragment[]): Fragment {
  let sql = '';
  const params: SqlValue[] = [];
  for (const part of parts) {
    sql += sql === '' || sql.endsWith(' ') ? part.sql : ` ${part.sql}`;
    params.push(...part.params);
  }
  return { sql, params };
}
