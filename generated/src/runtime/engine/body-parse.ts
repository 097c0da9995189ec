/**
 * Walks a body (or a stored version read back for publishing) along its schema, the way Strapi's
 * entity validator walks it: attribute by attribute in schema order, into components and dynamic
 * zones, collecting every problem instead of stopping at the first. The result is the write plan
 * (body-types.ts) plus what must be checked against the database: relation targets, files and
 * unique values.
 */
import { outside, ROW_ID_DOMAIN } from '../column-domains.ts';
import type { ComponentSchema, ContentTypeSchema, Field, ModelSchema } from '../schema.ts';
import { Issues } from './body-issues.ts';
import { isBody } from './body-keys.ts';
import { messages, notType, type Path } from './body-messages.ts';
import { parseRelation, referencedDocuments } from './body-relations.ts';
import { checkScalar, isUniqueChecked, type ScalarRules } from './body-scalars.ts';
import type { MediaUse, ParsedObject, ParsedValue, ParseResult, RelationUse, UniqueUse } from './body-types.ts';

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
      const given = raw === undefined && walk.rules.mode === 'creation' && field.default !== undefined ? field.default : raw;
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
      walk.relations.push({ path, field, refs: referencedDocuments(input) });
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
  return { kind: 'component', field, items: [parseObject(walk, component, raw, path)] };
}

function parseRepeatable(walk: Walk, field: Extract<Field, { kind: 'component' }>, raw: unknown, path: Path): ParsedValue | undefined {
  const list = parseList(walk, field, raw, path);
  if (list === undefined) return undefined;
  const component = componentSchema(walk.model, field.component);
  const items: ParsedObject[] = [];
  list.forEach((item, index) => {
    const itemPath = [...path, index];
    if (!isBody(item)) walk.issues.add(itemPath, notType(itemPath, 'object', item), item);
    else items.push(parseObject(walk, component, item, itemPath));
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
    items.push(parseObject(walk, componentSchema(walk.model, String(uid)), item, itemPath));
  });
  return { kind: 'dynamiczone', field, items };
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

function parseMedia(walk: Walk, field: Extract<Field, { kind: 'media' }>, raw: unknown, path: Path): ParsedValue | undefined {
  if (raw === undefined) return undefined;
  const given = raw === null ? [] : Array.isArray(raw) ? raw : [raw];
  const fileIds: number[] = [];
  const unreadable: unknown[] = [];
  for (const item of given) {
    const id = fileId(item);
    if (id === undefined) unreadable.push(item);
    else if (!fileIds.includes(id)) fileIds.push(id);
  }
  if (!field.multiple && given.length > 1) {
    walk.issues.add(path, messages.singleFile(path, given.length), raw);
    return undefined;
  }
  walk.media.push({ path, field, fileIds, unreadable });
  return { kind: 'media', field, fileIds };
}

/** Media are given by numeric id: `3`, `"3"` or `{ id: 3 }`; an id no row can have is no file. */
function fileId(value: unknown): number | undefined {
  const candidate = isBody(value) ? value.id : value;
  const id = typeof candidate === 'string' && /^\d+$/.test(candidate) ? Number(candidate) : candidate;
  if (typeof id !== 'number' || id <= 0 || outside(ROW_ID_DOMAIN, id) !== undefined) return undefined;
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
  return { uid: data.uid, values };
}
