/**
 * The ways a Strapi 5 body writes a relation, reduced to two operations:
 * - set: the relation becomes exactly these documents, in this order. A target, null, an array of
 *   targets, `{ set: ... }`, and for a to-one relation `{ connect: x }` all mean "set". A to-one
 *   relation given several targets keeps the last one, as Strapi does.
 * - patch: `{ connect, disconnect, options: { strict } }` on a to-many relation: disconnect first,
 *   then connect each item at its position (`before`/`after` a documentId, `start`, or the
 *   default `end`).
 * A target is a documentId, `{ documentId, locale?, status? }`, or, as Strapi reads numbers, the
 * row id of one of the target's versions: `5`, `"5"` or `{ id: 5 }`. Position anchors are
 * documentIds. Row ids are turned into documentIds once the database has been asked
 * (write-check.ts), before anything is written.
 */
import type { RelationField } from '../schema.ts';
import type { Issues } from './body-issues.ts';
import { messages, type Path } from './body-messages.ts';

export type Position = { readonly before: string } | { readonly after: string } | { readonly start: true } | { readonly end: true };

/** A document, in a locale (else the source's) and, for a draft & publish target, a status. */
export interface DocumentTarget {
  readonly documentId: string;
  readonly locale?: string;
  readonly status?: 'draft' | 'published';
}

/** A version row of the target type, by its id. */
export interface RowTarget {
  readonly id: number;
}

export type TargetRef = DocumentTarget | RowTarget;

export type ConnectRef = TargetRef & { readonly position?: Position };

export type RelationInput =
  | { readonly kind: 'set'; readonly refs: readonly TargetRef[] }
  | {
      readonly kind: 'patch';
      readonly connect: readonly ConnectRef[];
      readonly disconnect: readonly TargetRef[];
      /** Strapi's `options.strict` (default true): a position whose anchor is not in the list is an error, else the item goes last. */
      readonly strict: boolean;
    };

export function isRowTarget(ref: TargetRef): ref is RowTarget {
  return 'id' in ref;
}

/** The documentId of a resolved target (write-check.ts resolves row ids before any write). */
export function documentIdOf(ref: TargetRef): string {
  if (isRowTarget(ref)) throw new Error(`write engine: row id ${ref.id} was not resolved to a document`);
  return ref.documentId;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The operation a body value stands for, or undefined after reporting a value it cannot be. */
export function parseRelation(field: RelationField, raw: unknown, path: Path, issues: Issues): RelationInput | undefined {
  const many = field.cardinality === 'many';
  const fail = (): undefined => {
    issues.add(path, messages.relationShape(path), raw);
    return undefined;
  };
  if (raw === null) return { kind: 'set', refs: [] };
  if (Array.isArray(raw)) {
    const refs = items(raw);
    return refs === undefined ? fail() : { kind: 'set', refs: many ? refs : refs.slice(-1) };
  }
  if (!isObject(raw) || 'documentId' in raw || 'id' in raw) {
    const ref = item(raw);
    return ref === undefined ? fail() : { kind: 'set', refs: [ref] };
  }
  if (!('set' in raw) && !('connect' in raw) && !('disconnect' in raw)) return fail();
  const strict = parseStrict(raw.options);
  if (strict === undefined) return fail();
  if (raw.set !== undefined) {
    const refs = raw.set === null ? [] : items(castArray(raw.set));
    return refs === undefined ? fail() : { kind: 'set', refs: many ? refs : refs.slice(-1) };
  }
  const connect = raw.connect === undefined || raw.connect === null ? [] : items(castArray(raw.connect));
  const disconnect = raw.disconnect === undefined || raw.disconnect === null ? [] : items(castArray(raw.disconnect));
  if (connect === undefined || disconnect === undefined) return fail();
  // Connecting a to-one relation replaces its target; the last item wins, as Strapi keeps it.
  if (!many && connect.length > 0) return { kind: 'set', refs: [connect[connect.length - 1]!] };
  return { kind: 'patch', connect, disconnect, strict };
}

/** `options.strict`: true unless given as false; anything but a boolean is not Strapi's shape. */
function parseStrict(options: unknown): boolean | undefined {
  if (options === undefined || options === null) return true;
  if (!isObject(options)) return undefined;
  if (options.strict === undefined || options.strict === null) return true;
  return typeof options.strict === 'boolean' ? options.strict : undefined;
}

function castArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [value];
}

function items(values: readonly unknown[]): ConnectRef[] | undefined {
  const refs: ConnectRef[] = [];
  for (const value of values) {
    const ref = item(value);
    if (ref === undefined) return undefined;
    refs.push(ref);
  }
  return refs;
}

/**
 * A row id as Strapi reads one: an integer, or a string of digits. Ids no row can have (0,
 * negative, beyond the id column) are kept: they name nothing, and are counted as missing.
 */
function rowId(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  return undefined;
}

function item(value: unknown): ConnectRef | undefined {
  const id = rowId(value);
  if (id !== undefined) return { id };
  if (typeof value === 'number') return undefined;
  if (typeof value === 'string') return value === '' ? undefined : { documentId: value };
  if (!isObject(value)) return undefined;
  let position: Position | undefined;
  if (value.position !== undefined && value.position !== null) {
    position = parsePosition(value.position);
    if (position === undefined) return undefined;
  }
  if (value.documentId === undefined || value.documentId === null) {
    // `{ id }`: a row of the target type.
    const id = rowId(value.id);
    if (id === undefined) return undefined;
    return position === undefined ? { id } : { id, position };
  }
  if (typeof value.documentId !== 'string' && typeof value.documentId !== 'number') return undefined;
  const ref: { documentId: string; locale?: string; status?: 'draft' | 'published'; position?: Position } = { documentId: String(value.documentId) };
  if (typeof value.locale === 'string') ref.locale = value.locale;
  else if (value.locale !== undefined && value.locale !== null) return undefined;
  if (typeof value.status === 'string') ref.status = value.status === 'published' ? 'published' : 'draft';
  else if (value.status !== undefined && value.status !== null) return undefined;
  if (position !== undefined) ref.position = position;
  return ref;
}

function parsePosition(value: unknown): Position | undefined {
  if (!isObject(value)) return undefined;
  const anchor = (key: 'before' | 'after'): string | undefined => {
    const v = value[key];
    return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
  };
  const before = anchor('before');
  if (before !== undefined) return { before };
  const after = anchor('after');
  if (after !== undefined) return { after };
  if (value.start === true) return { start: true };
  if (value.end === true) return { end: true };
  return undefined;
}

/**
 * What an input names, for the existence checks: every target and position anchor must exist
 * (Strapi's "Document ... not found"), except that a row id is only counted when connected or
 * set (a row id to disconnect that names nothing is ignored, as Strapi ignores it).
 */
export function referencedTargets(input: RelationInput): { documents: DocumentTarget[]; rows: RowTarget[]; optionalRows: RowTarget[] } {
  const documents: DocumentTarget[] = [];
  const rows: RowTarget[] = [];
  const optionalRows: RowTarget[] = [];
  const add = (ref: TargetRef, list: RowTarget[]): void => {
    if (isRowTarget(ref)) list.push({ id: ref.id });
    else documents.push({ documentId: ref.documentId, ...(ref.locale ? { locale: ref.locale } : {}), ...(ref.status ? { status: ref.status } : {}) });
  };
  if (input.kind === 'set') {
    for (const ref of input.refs) add(ref, rows);
    return { documents, rows, optionalRows };
  }
  for (const ref of input.disconnect) add(ref, optionalRows);
  for (const ref of input.connect) add(ref, rows);
  for (const ref of input.connect) {
    const position = ref.position;
    const locale = isRowTarget(ref) ? undefined : ref.locale;
    const anchor = position === undefined ? undefined : 'before' in position ? position.before : 'after' in position ? position.after : undefined;
    if (anchor !== undefined) documents.push({ documentId: anchor, ...(locale ? { locale } : {}) });
  }
  return { documents, rows, optionalRows };
}
