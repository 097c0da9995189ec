/**
 * The ordered list of documents a relation holds after a write. `set` is the new list; a patch
 * disconnects first, then connects each item where its position says, the way Strapi's relation
 * orderer does: an item positioned relative to another item of the same connect list is placed
 * after that one, whatever their order in the body; connecting a document already in the list
 * moves it. Strapi's errors for impossible positions are kept (ids are documentIds here).
 */
import { ValidationError } from '../errors.ts';
import { documentIdOf, type ConnectRef, type Position, type RelationInput } from './body-relations.ts';

/** A connect item once resolved: the document and where it goes. */
interface Placement {
  readonly documentId: string;
  readonly position?: Position;
}

export function nextList(current: readonly string[], input: RelationInput): string[] {
  if (input.kind === 'set') return unique(input.refs.map(documentIdOf));
  const disconnected = new Set(input.disconnect.map(documentIdOf));
  const list = current.filter((id) => !disconnected.has(id));
  const placements = input.connect.map((ref: ConnectRef): Placement => ({ documentId: documentIdOf(ref), ...(ref.position ? { position: ref.position } : {}) }));
  for (const placement of connectOrder(placements, list, input.strict)) insert(list, placement);
  return list;
}

function unique(ids: readonly string[]): string[] {
  return [...new Set(ids)];
}

function anchorOf(position: Position | undefined): string | undefined {
  if (position === undefined) return undefined;
  if ('before' in position) return position.before;
  if ('after' in position) return position.after;
  return undefined;
}

/**
 * Connect items in an order where every anchor is placed before the items that refer to it. An
 * anchor neither in the list nor connected is an error when `strict`, else the item goes last.
 */
function connectOrder(connect: readonly Placement[], initial: readonly string[], strict: boolean): Placement[] {
  const byId = new Map<string, Placement>();
  for (const ref of connect) {
    if (byId.has(ref.documentId)) {
      throw new ValidationError(`The relation with id ${ref.documentId} is already connected. You cannot connect the same relation twice.`);
    }
    byId.set(ref.documentId, ref);
  }
  const present = new Set(initial);
  const done = new Set<string>();
  const sorted: Placement[] = [];
  const visit = (ref: Placement, branch: ReadonlySet<string>): void => {
    if (done.has(ref.documentId)) return;
    const anchor = anchorOf(ref.position);
    if (anchor !== undefined && branch.has(anchor)) {
      throw new ValidationError('A circular reference was found in the connect array. One relation is trying to connect before/after another one that is trying to connect before/after it');
    }
    done.add(ref.documentId);
    if (anchor !== undefined && !present.has(anchor)) {
      const anchorRef = byId.get(anchor);
      if (anchorRef === undefined && !strict) {
        sorted.push({ documentId: ref.documentId, position: { end: true } });
        return;
      }
      if (anchorRef === undefined) {
        throw new ValidationError(
          `There was a problem connecting relation with id ${ref.documentId} at position ${JSON.stringify(ref.position)}. The relation with id ${anchor} needs to be connected first.`,
        );
      }
      visit(anchorRef, new Set([...branch, ref.documentId]));
    }
    sorted.push(ref);
  };
  for (const ref of connect) visit(ref, new Set());
  return sorted;
}

function insert(list: string[], ref: Placement): void {
  const existing = list.indexOf(ref.documentId);
  if (existing !== -1) list.splice(existing, 1);
  const position = ref.position;
  let index = list.length;
  if (position !== undefined && 'before' in position) index = list.indexOf(position.before);
  else if (position !== undefined && 'after' in position) index = list.indexOf(position.after) + 1;
  else if (position !== undefined && 'start' in position) index = 0;
  list.splice(index === -1 ? list.length : index, 0, ref.documentId);
}
