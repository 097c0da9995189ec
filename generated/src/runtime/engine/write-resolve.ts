/**
 * Once the database has said which documents the row ids of a body belong to (write-check.ts),
 * the plan's relation values name documents only: a row id becomes its row's documentId, and a
 * row id to disconnect that names no row is dropped (there is nothing to disconnect).
 */
import { isRowTarget, type ConnectRef, type RelationInput, type TargetRef } from './body-relations.ts';
import type { ParsedObject, ParsedValue } from './body-types.ts';
import type { RowDocuments } from './write-check.ts';

export function resolveRowTargets(plan: ParsedObject, documents: RowDocuments): ParsedObject {
  const values = new Map<string, ParsedValue>();
  for (const [name, value] of plan.values) {
    if (value.kind === 'relation') values.set(name, { ...value, input: resolveInput(value.input, documents.get(value.field.target)) });
    else if (value.kind === 'component' || value.kind === 'dynamiczone') {
      values.set(name, { ...value, items: value.items.map((item) => resolveRowTargets(item, documents)) } as ParsedValue);
    } else values.set(name, value);
  }
  return { ...plan, values };
}

function resolveInput(input: RelationInput, rows: ReadonlyMap<number, string> | undefined): RelationInput {
  const resolve = <R extends TargetRef>(ref: R): R | undefined => {
    if (!isRowTarget(ref)) return ref;
    const documentId = rows?.get(ref.id);
    if (documentId === undefined) return undefined;
    const { id: _id, ...rest } = ref as R & { id: number };
    return { ...rest, documentId } as unknown as R;
  };
  const all = <R extends TargetRef>(refs: readonly R[]): R[] => refs.map(resolve).filter((r): r is R => r !== undefined);
  if (input.kind === 'set') return { kind: 'set', refs: all(input.refs) };
  return { ...input, connect: all<ConnectRef>(input.connect), disconnect: all(input.disconnect) };
}
