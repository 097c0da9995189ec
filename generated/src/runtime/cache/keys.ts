/**
 * Surrogate keys of a REST answer: the content types and documents it contains, read off the
 * answer itself along the model (the attribute names of Strapi 5's answers are the model's), so
 * that every populated relation, media field, component and dynamic-zone entry is found whatever
 * query produced it.
 *
 * The keys are what purges (purge.ts) evict by. A write of document D of type T purges `T` and
 * `T:D`, so an answer is tagged:
 *   - `T` when it lists entries of T (a collection answer) or populates a relation or media field
 *     of target T: which entries such a list holds changes with writes to any document of T (a new
 *     link, a filter that now matches), not only to the documents it held before;
 *   - `T:D` for every document D of T it contains. For a single document answer (findOne) that
 *     key alone names the root, so writes to other documents of its type leave it cached.
 */
import type { ComponentSchema, ContentTypeSchema, Field, ModelSchema } from '../schema.ts';
import { UPLOAD_FILE_UID } from '../upload/file-schema.ts';

export class AnswerKeys {
  /** Keys the answer must carry to be purged at all: its type keys, and a single answer's root document. */
  readonly required = new Set<string>();
  /** The other documents it contains: only a finer-grained name for what a type key already covers. */
  readonly documents = new Set<string>();

  type(uid: string): void {
    this.required.add(uid);
  }

  /** The one document a findOne answer is about. */
  root(uid: string, entry: unknown): void {
    const key = documentKey(uid, entry);
    if (key !== undefined) this.required.add(key);
  }

  document(uid: string, entry: unknown): void {
    const key = documentKey(uid, entry);
    if (key !== undefined && !this.required.has(key)) this.documents.add(key);
  }
}

function documentKey(uid: string, entry: unknown): string | undefined {
  const documentId = isObject(entry) ? entry.documentId : undefined;
  return typeof documentId === 'string' ? `${uid}:${documentId}` : undefined;
}

type Attributes = ContentTypeSchema['attributes'] | ComponentSchema['attributes'];

/** How each kind of attribute's value is walked: what it adds, and what it contains. */
const walkers: { readonly [K in Field['kind']]: (field: Extract<Field, { kind: K }>, value: unknown, model: ModelSchema, keys: AnswerKeys) => void } = {
  scalar: () => undefined,
  relation: (field, value, model, keys) => {
    keys.type(field.target);
    const target = model.contentTypes[field.target];
    for (const entry of entries(value)) {
      keys.document(field.target, entry);
      if (target !== undefined) walkEntity(target.attributes, entry, model, keys);
    }
  },
  media: (_field, value, _model, keys) => {
    keys.type(UPLOAD_FILE_UID);
    for (const entry of entries(value)) keys.document(UPLOAD_FILE_UID, entry);
  },
  component: (field, value, model, keys) => {
    const component = model.components[field.component];
    if (component !== undefined) for (const entry of entries(value)) walkEntity(component.attributes, entry, model, keys);
  },
  dynamiczone: (_field, value, model, keys) => {
    for (const entry of entries(value)) {
      const uid = isObject(entry) ? entry.__component : undefined;
      const component = typeof uid === 'string' ? model.components[uid] : undefined;
      if (component !== undefined) walkEntity(component.attributes, entry, model, keys);
    }
  },
};

function walkEntity(attributes: Attributes, entity: unknown, model: ModelSchema, keys: AnswerKeys): void {
  if (!isObject(entity)) return;
  for (const name in entity) {
    const field = attributes[name];
    if (field === undefined || field.kind === 'scalar') continue;
    (walkers[field.kind] as (field: Field, value: unknown, model: ModelSchema, keys: AnswerKeys) => void)(field, entity[name], model, keys);
  }
}

/**
 * The keys of a REST read answer (`{ data, meta }`) of type `uid`: `list` for a collection's
 * find, whose entries come and go with any write of the type.
 */
export function restAnswerKeys(model: ModelSchema, uid: string, list: boolean, body: unknown): AnswerKeys {
  const keys = new AnswerKeys();
  const schema = model.contentTypes[uid];
  const data = isObject(body) ? body.data : undefined;
  if (list || schema?.kind === 'singleType') keys.type(uid);
  for (const entry of entries(data)) {
    if (list) keys.document(uid, entry);
    else keys.root(uid, entry);
    if (schema !== undefined) walkEntity(schema.attributes, entry, model, keys);
  }
  return keys;
}

/**
 * Every type an answer about `uid` may contain, following relations and media through
 * components and dynamic zones: the keys of an answer whose shape is not the model's (Strapi 4's
 * format, a project's controller).
 */
export function reachableTypes(model: ModelSchema, uid: string): AnswerKeys {
  const keys = new AnswerKeys();
  const seen = new Set<string>();
  const visit = (attributes: Attributes): void => {
    for (const field of Object.values(attributes)) {
      const next = reachable[field.kind](field as never);
      if (next === undefined) continue;
      if (next.type !== undefined) keys.type(next.type);
      for (const name of next.visit) {
        if (seen.has(name)) continue;
        seen.add(name);
        const attributesOf = model.contentTypes[name]?.attributes ?? model.components[name]?.attributes;
        if (attributesOf !== undefined) visit(attributesOf);
      }
    }
  };
  keys.type(uid);
  seen.add(uid);
  const root = model.contentTypes[uid];
  if (root !== undefined) visit(root.attributes);
  return keys;
}

/** What an attribute leads to: a type key, and the schemas (types or components) to look into. */
const reachable: { readonly [K in Field['kind']]: (field: Extract<Field, { kind: K }>) => { type?: string; visit: readonly string[] } | undefined } = {
  scalar: () => undefined,
  relation: (field) => ({ type: field.target, visit: [field.target] }),
  media: () => ({ type: UPLOAD_FILE_UID, visit: [] }),
  component: (field) => ({ visit: [field.component] }),
  dynamiczone: (field) => ({ visit: field.components }),
};

/** A populated value's entries: a list, one object, or none (null, `{ count }` has no documentId and is skipped by `document`). */
function entries(value: unknown): readonly unknown[] {
  if (Array.isArray(value)) return value;
  return isObject(value) ? [value] : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
