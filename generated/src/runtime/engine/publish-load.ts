/**
 * A stored version read back in the shape of a request body (scalars as the API takes them,
 * components as objects, dynamic zones with `__component`), so that publishing can validate the
 * draft it publishes with the same rules as a body, as Strapi validates the draft on publish.
 * Relations and media are left out: no rule of the validator looks at them.
 */
import type { Dialect, Queryable, Row } from '../database.ts';
import { SCALAR_TYPES, type BodyCheck } from '../../contract/scalar-types.ts';
import type { ModelSchema, ScalarType } from '../schema.ts';
import { isoText } from './body-scalars.ts';
import { componentOf, type Schema } from './write-schema.ts';
import { quote } from './sql.ts';

export type Tree = Record<string, unknown>;

export async function loadVersionTree(db: Queryable, model: ModelSchema, schema: Schema, rowId: number): Promise<Tree> {
  const rows = await db.query<Row>(`SELECT * FROM ${quote(schema.table)} WHERE id = ?`, [rowId]);
  const row = rows[0];
  if (row === undefined) throw new Error(`write engine: row ${rowId} of ${schema.table} is gone`);
  return treeOf(db, model, schema, row);
}

async function treeOf(db: Queryable, model: ModelSchema, schema: Schema, row: Row): Promise<Tree> {
  const tree: Tree = {};
  const id = Number(row.id);
  for (const [name, field] of Object.entries(schema.attributes)) {
    if (field.kind === 'scalar') tree[name] = fromColumn(db.dialect, field.type, row[field.column]);
    else if (field.kind === 'component') {
      const items = await componentTrees(db, model, field.component, schema.uid, id, name);
      tree[name] = field.repeatable ? items.map((i) => i.tree) : (items[0]?.tree ?? null);
    } else if (field.kind === 'dynamiczone') {
      const entries: { ord: number; tree: Tree }[] = [];
      for (const uid of field.components) {
        for (const item of await componentTrees(db, model, uid, schema.uid, id, name)) entries.push({ ord: item.ord, tree: { __component: uid, ...item.tree } });
      }
      tree[name] = entries.sort((a, b) => a.ord - b.ord).map((e) => e.tree);
    }
  }
  return tree;
}

async function componentTrees(db: Queryable, model: ModelSchema, uid: string, ownerUid: string, ownerId: number, field: string): Promise<{ ord: number; tree: Tree }[]> {
  const component = componentOf(model, uid);
  const rows = await db.query<Row>(`SELECT * FROM ${quote(component.table)} WHERE entity_type = ? AND entity_id = ? AND entity_field = ? ORDER BY entity_ord, id`, [ownerUid, ownerId, field]);
  const out: { ord: number; tree: Tree }[] = [];
  for (const row of rows) out.push({ ord: Number(row.entity_ord), tree: await treeOf(db, model, component, row) });
  return out;
}

/** A column value as a body would give it (see body-scalars.ts for what each type accepts). */
function fromColumn(dialect: Dialect, type: ScalarType, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  return FROM_COLUMN[SCALAR_TYPES[type].body](value, dialect);
}

/** Per body check of the contract's SCALAR_TYPES, a non-null column value as a body gives it. */
const FROM_COLUMN: Readonly<Record<BodyCheck, (value: unknown, dialect: Dialect) => unknown>> = {
  string: asText,
  enumeration: asText,
  time: asText,
  number: (value) => Number(value),
  biginteger: (value) => String(value),
  boolean: (value) => value === true || value === 1 || value === '1' || value === 't',
  date: (value) => String(value).slice(0, 10),
  datetime: (value) => (value instanceof Date ? value.toISOString() : isoText(String(value))),
  json: jsonFromColumn,
  blocks: jsonFromColumn,
};

function asText(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

function jsonFromColumn(value: unknown, dialect: Dialect): unknown {
  return dialect.json.readsAsText && typeof value === 'string' ? JSON.parse(value) : value;
}
