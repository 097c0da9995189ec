/**
 * The ways a Strapi 5 body writes a relation, reduced to two operations:
 * - set: the relation becomes exactly these documents, in this order. A documentId, null, an
 *   array of documentIds, `{ documentId }`, `{ set: ... }`, and for a to-one relation
 *   `{ connect: x }` all mean "set".
 * - patch: `{ connect, disconnect }` on a to-many relation: disconnect first, then connect each
 *   item at its position (`before`/`after` a documentId, `start`, or the default `end`).
 * Items are documentId strings or `{ documentId, locale?, position? }`.
 */
import type { RelationField } from '../schema.ts';
import type { Issues } from './body-issues.ts';
import { messages, type Path } from './body-messages.ts';

export type Position =
  | { readonly before: string }
  | { readonly after: string }
  | { readonly start: true }
  | { readonly end: true };

export interface RelationRef {
  readonly documentId: string;
  /** For a localized target: the locale to link; defaults to the source's (or the default) locale. */
  readonly locale?: string;
}

export interface ConnectRef extends RelationRef {
  readonly position?: Position;
}

export type RelationInput =
  | { readonly kind: 'set'; readonly refs: readonly RelationRef[] }
  | { readonly kind: 'patch'; readonly connect: readonly ConnectRef[]; readonly disconnect: readonly RelationRef[] };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The operation a body value stands for, or undefined after reporting a value it cannot be. */
export function parseRelation(field: RelationField, raw: unknown, path: Path, issues: Issues): RelationInput | undefined {
  const many = field.cardinality === 'many';
  const fail = (): undefined => {
    issues.add(path, messages.relationShape(path), raw);
    return undefined;
  };
  if (raw === null) return { kind: 'set', refs: [] };
  if (typeof raw === 'string' || typeof raw === 'number') return { kind: 'set', refs: [{ documentId: String(raw) }] };
  if (Array.isArray(raw)) {
    const refs = items(raw);
    if (refs === undefined || (!many && refs.length > 1)) return fail();
    return { kind: 'set', refs };
  }
  if (!isObject(raw)) return fail();
  if ('documentId' in raw) {
    const ref = item(raw);
    return ref === undefined ? fail() : { kind: 'set', refs: [ref] };
  }
  if (!('set' in raw) && !('connect' in raw) && !('disconnect' in raw)) return fail();
  if (raw.set !== undefined) {
    const refs = raw.set === null ? [] : items(castArray(raw.set));
    if (refs === undefined || (!many && refs.length > 1)) return fail();
    return { kind: 'set', refs };
  }
  const connect = raw.connect === undefined || raw.connect === null ? [] : items(castArray(raw.connect));
  const disconnect = raw.disconnect === undefined || raw.disconnect === null ? [] : items(castArray(raw.disconnect));
  if (connect === undefined || disconnect === undefined) return fail();
  // Connecting a to-one relation replaces its target; the last item wins, as Strapi keeps it.
  if (!many && connect.length > 0) return { kind: 'set', refs: [connect[connect.length - 1]!] };
  return { kind: 'patch', connect, disconnect };
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

function item(value: unknown): ConnectRef | undefined {
  if (typeof value === 'string' || typeof value === 'number') return { documentId: String(value) };
  if (!isObject(value) || (typeof value.documentId !== 'string' && typeof value.documentId !== 'number')) return undefined;
  const ref: { documentId: string; locale?: string; position?: Position } = { documentId: String(value.documentId) };
  if (typeof value.locale === 'string') ref.locale = value.locale;
  else if (value.locale !== undefined && value.locale !== null) return undefined;
  if (value.position !== undefined && value.position !== null) {
    const position = parsePosition(value.position);
    if (position === undefined) return undefined;
    ref.position = position;
  }
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

/** Every documentId an input names, positions' anchors included: all must exist. */
export function referencedDocuments(input: RelationInput): RelationRef[] {
  if (input.kind === 'set') return [...input.refs];
  const anchors: RelationRef[] = [];
  for (const ref of input.connect) {
    const position = ref.position;
    if (position !== undefined && 'before' in position) anchors.push({ documentId: position.before, ...(ref.locale ? { locale: ref.locale } : {}) });
    if (position !== undefined && 'after' in position) anchors.push({ documentId: position.after, ...(ref.locale ? { locale: ref.locale } : {}) });
  }
  return [...input.disconnect, ...input.connect, ...anchors];
}
