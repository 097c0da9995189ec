/**
 * Walks a body (or a stored version read back for publishing) along its schema, the way Strapi's
 * entity validator walks it: attribute by attribute in schema order, into components and dynamic
 * zones, collecting every problem instead of stopping at the first. The result is the write plan
 * (body-types.ts) plus what must be checked against the database: relation targets, files and
 * unique values.
 */
import { isRowId } from '../column-domains.ts';
import type { ComponentSchema, ContentTypeSchema, Field, ModelSchema } from '../schema.ts';
import { Issues } from './body-issues.ts';
import { isBody } from './body-keys.ts';
import { messages, notType, type Path } from './body-messages.ts';
import { parseRelation, referencedTargets } from './body-relations.ts';
import { checkScalar, isUniqueChecked, type ScalarRules } from './body-scalars.ts';
import type { MediaInput, MediaUse, ParsedObject, ParsedValue, ParseResult, RelationUse, UniqueUse } from './body-types.ts';
import { valueOnCreate } from './generated-values.ts';

type Schema = ContentTypeSchema | ComponentSchema;

interface Walk {
  readonly model: ModelSchema;
  readonly rules: ScalarRules;
  readonly issues: Issues;
  readonly relations: RelationUse[];
  readonly media: MediaUse[];
  readonly unique: UniqueUse[];
}

/**
 * Validates `data` against a content type. `rules.isDraft` relaxes the publish-only checks;
 * `rules.mode` decides whether missing required values are errors and defaults apply.
 */
export function parseBody(model: ModelSchema, schema: ContentTypeSchema, data: Record<string, unknown>, rules: ScalarRules): ParseResult {
  const walk: Walk = { model, rules, issues: new Issues(), relations: [], media: [], unique: [] };
  const parsed = parseObject(walk, schema, data, []);
  return { data: parsed, issues: walk.issues, relations: walk.relations, media: walk.media, unique: walk.unique };
}

function parseObject(walk: Walk, schema: Schema, data: Record<string, unknown>, path: Path): ParsedObject {
  const values = new Map<string, ParsedValue>();
  for (const [name, field] of Object.entries(schema.attributes)) {
    const raw = Object.hasOwn(data, name) ? data[name] : undefined;
    const value = parseValue(walk, field, raw, [...path, name]);
    if (value !== undefined) values.set(name, value);
  }
  return { uid: schema.uid, values };
}

function parseValue(walk: Walk, field: Field, raw: unknown, path: Path): ParsedValue | undefined {
  switch (field.kind) {
    case 'scalar': {
      const given = walk.rules.mode === 'creation' ? valueOnCreate(field, raw) : raw;
      const outcome = checkScalar(field, given, path, walk.rules, walk.issues);
      if (!outcome.ok || outcome.value === undefined) return undefined;
      const value = outcome.value;
      if (!walk.rules.isDraft && isUniqueChecked(field) && path.length === 1 && value !== null && value !== '') walk.unique.push({ path, field, value });
      return { kind: 'scalar', field, value };
    }
    case 'component':
      return field.repeatable ? parseRepeatable(walk, field, raw, path) : parseSingleComponent(walk, field, raw, path);
    case 'dynamiczone':
      return parseDynamicZone(walk, field, raw, path);
    case 'relation': {
      if (raw === undefined) return undefined;
      const input = parseRelation(field, raw, path, walk.issues);
      if (input === undefined) return undefined;
      walk.relations.push({ path, field, ...referencedTargets(input) });
      return { kind: 'relation', field, input };
    }
    case 'media':
      return parseMedia(walk, field, raw, path);
  }
}

function parseSingleComponent(walk: Walk, field: Extract<Field, { kind: 'component' }>, raw: unknown, path: Path): ParsedValue | undefined {
  const required = !walk.rules.isDraft && field.required;
  if (raw === undefined) {
    if (required && walk.rules.mode === 'creation') walk.issues.add(path, messages.defined(path));
    return undefined;
  }
  if (raw === null) {
    if (required) {
      walk.issues.add(path, notType(path, 'object', null), null);
      return undefined;
    }
    return { kind: 'component', field, items: [] };
  }
  if (!isBody(raw)) {
    walk.issues.add(path, notType(path, 'object', raw), raw);
    return undefined;
  }
  const component = componentSchema(walk.model, field.component);
  return { kind: 'component', field, items: [parseComponentItem(walk, component, raw, path)] };
}

function parseRepeatable(walk: Walk, field: Extract<Field, { kind: 'component' }>, raw: unknown, path: Path): ParsedValue | undefined {
  const list = parseList(walk, field, raw, path);
  if (list === undefined) return undefined;
  const component = componentSchema(walk.model, field.component);
  const items: ParsedObject[] = [];
  list.forEach((item, index) => {
    const itemPath = [...path, index];
    if (!isBody(item)) walk.issues.add(itemPath, notType(itemPath, 'object', item), item);
    else items.push(parseComponentItem(walk, component, item, itemPath));
  });
  return { kind: 'component', field, items };
}

function parseDynamicZone(walk: Walk, field: Extract<Field, { kind: 'dynamiczone' }>, raw: unknown, path: Path): ParsedValue | undefined {
  const list = parseList(walk, field, raw, path);
  if (list === undefined) return undefined;
  const items: ParsedObject[] = [];
  list.forEach((item, index) => {
    const itemPath = [...path, index];
    if (!isBody(item)) {
      walk.issues.add(itemPath, notType(itemPath, 'object', item), item);
      return;
    }
    const uidPath = [...itemPath, '__component'];
    const uid = item.__component;
    if (uid === undefined || uid === null) {
      walk.issues.add(uidPath, messages.required(uidPath), uid);
      return;
    }
    if (typeof uid === 'object') {
      walk.issues.add(uidPath, notType(uidPath, 'string', uid), uid);
      return;
    }
    if (!field.components.includes(String(uid))) {
      walk.issues.add(uidPath, messages.oneOf(uidPath, field.components), String(uid));
      return;
    }
    items.push(parseComponentItem(walk, componentSchema(walk.model, String(uid)), item, itemPath));
  });
  return { kind: 'dynamiczone', field, items };
}

/**
 * One component instance. On update, an instance given with its `id` is a patch of that stored
 * row (validated as an update: absent attributes keep their values); any other instance is a new
 * row written whole, so it is validated as a creation, required attributes included, whatever
 * the request is (Strapi validates it as an update and stores the missing required values as
 * null, which then breaks every GraphQL read of the non-null field).
 */
function parseComponentItem(walk: Walk, component: ComponentSchema, item: Record<string, unknown>, path: Path): ParsedObject {
  const patch = walk.rules.mode === 'update' && !walk.rules.stored && item.id !== undefined;
  if (!patch) return parseObject(walk.rules.mode === 'creation' ? walk : { ...walk, rules: { ...walk.rules, mode: 'creation' } }, component, item, path);
  const parsed = parseObject(walk, component, item, path);
  // An id that cannot be a row id is kept as NaN: it matches no stored instance, so the write refuses it as Strapi does.
  return { ...parsed, id: componentRowId(item.id) };
}

function componentRowId(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return Number.NaN;
}

/**
 * The list of a repeatable component or dynamic zone. Strapi always treats these as required
 * lists: null is a type error, a missing one on creation is [] unless the attribute is required.
 * Item counts are checked when publishing (min only for a required or non-empty list).
 */
function parseList(walk: Walk, field: { required: boolean; min?: number; max?: number }, raw: unknown, path: Path): readonly unknown[] | undefined {
  if (raw === undefined) {
    if (field.required && walk.rules.mode === 'creation') walk.issues.add(path, messages.defined(path));
    return undefined;
  }
  if (!Array.isArray(raw)) {
    walk.issues.add(path, notType(path, 'array', raw), raw);
    return undefined;
  }
  if (!walk.rules.isDraft) {
    if (field.min !== undefined && Number.isInteger(field.min) && (field.required || raw.length > 0) && raw.length < field.min) {
      walk.issues.add(path, messages.arrayMin(path, field.min), raw);
    }
    if (field.max !== undefined && Number.isInteger(field.max) && raw.length > field.max) walk.issues.add(path, messages.arrayMax(path, field.max), raw);
  }
  return raw;
}

/**
 * A media value: a file id, `{ id }`, a list of them or null (the files it becomes), or for a
 * multiple media `{ connect, disconnect, set }` of file ids, as Strapi takes its morph relation
 * to files. Files connected or set must exist; files to disconnect need not.
 */
function parseMedia(walk: Walk, field: Extract<Field, { kind: 'media' }>, raw: unknown, path: Path): ParsedValue | undefined {
  if (raw === undefined) return undefined;
  if (isBody(raw) && ('connect' in raw || 'disconnect' in raw || 'set' in raw)) return parseMediaOperations(walk, field, raw, path);
  const given = raw === null ? [] : Array.isArray(raw) ? raw : [raw];
  if (!field.multiple && given.length > 1) {
    walk.issues.add(path, messages.singleFile(path, given.length), raw);
    return undefined;
  }
  const { ids, unreadable } = fileIds(given);
  walk.media.push({ path, field, fileIds: ids, unreadable });
  return { kind: 'media', field, input: { kind: 'set', fileIds: ids } };
}

function parseMediaOperations(walk: Walk, field: Extract<Field, { kind: 'media' }>, raw: Record<string, unknown>, path: Path): ParsedValue | undefined {
  const list = (value: unknown): readonly unknown[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);
  let input: MediaInput;
  let named: { ids: number[]; unreadable: unknown[] };
  if (raw.set !== undefined) {
    named = fileIds(list(raw.set));
    input = { kind: 'set', fileIds: named.ids };
  } else {
    named = fileIds(list(raw.connect));
    // What cannot be a file id cannot be linked either: there is nothing to disconnect.
    const disconnect = fileIds(list(raw.disconnect));
    // A single media holds one file: connecting replaces it, the last one given wins.
    input = field.multiple || named.ids.length === 0 ? { kind: 'patch', connect: named.ids, disconnect: disconnect.ids } : { kind: 'set', fileIds: named.ids.slice(-1) };
  }
  if (!field.multiple && input.kind === 'set' && input.fileIds.length > 1) {
    walk.issues.add(path, messages.singleFile(path, input.fileIds.length), raw);
    return undefined;
  }
  walk.media.push({ path, field, fileIds: named.ids, unreadable: named.unreadable });
  return { kind: 'media', field, input };
}

/** The distinct file ids of a list, in order, and the values that cannot be one. */
function fileIds(given: readonly unknown[]): { ids: number[]; unreadable: unknown[] } {
  const ids: number[] = [];
  const unreadable: unknown[] = [];
  for (const item of given) {
    const id = fileId(item);
    if (id === undefined) unreadable.push(item);
    else if (!ids.includes(id)) ids.push(id);
  }
  return { ids, unreadable };
}

/** Media are given by numeric id: `3`, `"3"` or `{ id: 3 }`; an id no row can have is no file. */
function fileId(value: unknown): number | undefined {
  const candidate = isBody(value) ? value.id : value;
  const id = typeof candidate === 'string' && /^\d+$/.test(candidate) ? Number(candidate) : candidate;
  if (typeof id !== 'number' || !isRowId(id)) return undefined;
  return id;
}

function componentSchema(model: ModelSchema, uid: string): ComponentSchema {
  const schema = model.components[uid];
  if (schema === undefined) throw new Error(`write engine: unknown component ${uid}`);
  return schema;
}

/** Replaces every password of a plan by its hash (done once, however many rows the plan is written to). */
export async function hashPasswords(data: ParsedObject, hash: (plain: string) => Promise<string>): Promise<ParsedObject> {
  const values = new Map<string, ParsedValue>();
  for (const [name, value] of data.values) {
    if (value.kind === 'scalar' && value.field.type === 'password' && typeof value.value === 'string') {
      values.set(name, { ...value, value: await hash(value.value) });
    } else if (value.kind === 'component' || value.kind === 'dynamiczone') {
      const items: ParsedObject[] = [];
      for (const item of value.items) items.push(await hashPasswords(item, hash));
      values.set(name, { ...value, items } as ParsedValue);
    } else values.set(name, value);
  }
  return { ...data, values };
}
