/**
 * Turns raw ajv errors into one human sentence and one fix hint each. ajv describes schema
 * keywords ("must have required property", "must be equal to one of the allowed values"); the
 * author needs the key, the value and what to write instead.
 */
import type { ErrorObject } from 'ajv';
import { pointer as buildPointer, pointerToken } from '../diagnostics.ts';
import type { SchemaFileKind } from '../load.ts';
import { ATTRIBUTE_OPTIONS, ATTRIBUTE_TYPES, IGNORED_ATTRIBUTE_KEYS, RELATION_KINDS, UNSUPPORTED_INDEX_KEYS, UNSUPPORTED_KEYS, type AttributeTypeName } from './catalog.ts';
import { KEBAB_CASE, TABLE_NAME, type JsonSchema } from './json-schema.ts';
import { snakeCase, snakeWords } from '../model/names.ts';
import { closest, didYouMean } from './suggest.ts';

export interface Message {
  readonly pointer: string;
  readonly message: string;
  readonly hint: string;
  /**
   * The attribute is unusable as a whole (unknown type, unsupported relation kind): other errors
   * inside it are consequences, not separate problems, and are dropped.
   */
  readonly fatal?: boolean;
  /** A key Strapi boots with and ignores: a note, not an error (unknownKey). */
  readonly ignored?: boolean;
}

export function describeError(error: ErrorObject, kind: SchemaFileKind): Message | undefined {
  switch (error.keyword) {
    case 'if': // the `then` branch reports the real problem
      return undefined;
    case 'required':
      return missingKey(error);
    case 'additionalProperties':
      return unknownKey(error);
    case 'enum':
      return notInEnum(error, kind);
    case 'uniqueItems':
      return duplicateItem(error);
    case 'minItems':
      return tooFewItems(error);
    default:
      return wrongValue(error);
  }
}

function missingKey(error: ErrorObject): Message {
  const key = String(error.params['missingProperty']);
  const at = `${error.instancePath}/${pointerToken(key)}`;
  if (key === 'type' && isAttributePointer(error.instancePath)) {
    return { pointer: at, message: 'missing required key "type"', hint: `add "type" with one of: ${ATTRIBUTE_TYPES.join(', ')}` };
  }
  const property = propertySchema(error.parentSchema, key);
  const choices = property?.['enum'];
  if (Array.isArray(choices)) return { pointer: at, message: `missing required key "${key}"`, hint: `add "${key}" with one of: ${choices.join(', ')}` };
  const description = typeof property?.['description'] === 'string' ? `: ${sentence(property['description'])}` : '';
  return { pointer: at, message: `missing required key "${key}"`, hint: `add "${key}"${description}` };
}

/**
 * A key no schema knows. Strapi's loader checks no key names (only `info` and enumerations), so
 * it boots with any extra key and ignores it: so does capi, with a note (`ignored`). Two kinds
 * stay errors: a near-miss of a key capi reads (a misspelt `requierd` would silently drop the
 * constraint its author wrote) and the keys capi knows and does not implement (UNSUPPORTED_KEYS).
 */
function unknownKey(error: ErrorObject): Message {
  const key = String(error.params['additionalProperty']);
  const at = `${error.instancePath}/${pointerToken(key)}`;
  // Keys accepted only to be ignored are not worth suggesting.
  const allowed = Object.keys(propertiesOf(error.parentSchema)).filter((k) => k !== '$schema' && k !== 'type' && !(k in IGNORED_ATTRIBUTE_KEYS));
  const unsupported = (/^\/indexes\/\d+$/.test(error.instancePath) ? UNSUPPORTED_INDEX_KEYS : UNSUPPORTED_KEYS)[key];
  if (unsupported !== undefined) return { pointer: at, message: `"${key}" is not supported by capi`, hint: unsupported };
  const suggestion = closest(key, allowed);
  if (suggestion !== undefined) return { pointer: at, message: `unknown key "${key}"`, hint: `did you mean "${suggestion}"?` };
  const type = attributeType(error);
  const what = type !== undefined && isOptionOfSomeType(key) ? `"${key}" is not an option of ${type} attributes` : `unknown key "${key}"`;
  return { pointer: at, message: `${what}: ignored, as Strapi ignores it`, hint: `remove it; keys read here: ${allowed.join(', ')}`, ignored: true };
}

function notInEnum(error: ErrorObject, kind: SchemaFileKind): Message {
  const value = error.data;
  if (isAttributePointer(parentPointer(error.instancePath))) {
    const last = lastToken(error.instancePath);
    if (last === 'type') return unknownAttributeType(error.instancePath, value, kind);
    if (last === 'relation') return unknownRelationKind(error.instancePath, value);
  }
  const allowed = (Array.isArray(error.schema) ? error.schema : []).map(String);
  const suggestion = typeof value === 'string' ? didYouMean(value, allowed) : '';
  return {
    pointer: error.instancePath,
    message: `${subject(error.instancePath)} must be one of ${allowed.join(', ')}, not ${JSON.stringify(value)}`,
    hint: `${suggestion}use one of: ${allowed.join(', ')}`,
  };
}

function unknownAttributeType(at: string, value: unknown, kind: SchemaFileKind): Message {
  if (value === 'dynamiczone' && kind === 'component') {
    return {
      pointer: at,
      message: 'dynamic zones are not allowed in components',
      hint: 'move the dynamic zone to a content type, or use a repeatable "component" attribute',
      fatal: true,
    };
  }
  const suggestion = typeof value === 'string' ? didYouMean(value, ATTRIBUTE_TYPES) : '';
  return {
    pointer: at,
    message: `attribute type ${JSON.stringify(value)} is not a Strapi attribute type`,
    hint: `${suggestion}use one of: ${ATTRIBUTE_TYPES.join(', ')}`,
    fatal: true,
  };
}

function unknownRelationKind(at: string, value: unknown): Message {
  const suggestion = typeof value === 'string' ? didYouMean(value, RELATION_KINDS) : '';
  return {
    pointer: at,
    message: `relation kind ${JSON.stringify(value)} is not a Strapi relation kind`,
    hint: `${suggestion}use one of: ${RELATION_KINDS.join(', ')}`,
    fatal: true,
  };
}

function duplicateItem(error: ErrorObject): Message {
  const index = Math.max(Number(error.params['i']), Number(error.params['j']));
  const item: unknown = Array.isArray(error.data) ? error.data[index] : undefined;
  return {
    pointer: `${error.instancePath}/${index}`,
    message: `${subject(error.instancePath)} lists ${JSON.stringify(item)} twice`,
    hint: 'remove the duplicate',
  };
}

function tooFewItems(error: ErrorObject): Message {
  const limit = Number(error.params['limit']);
  const what = limit === 1 ? 'must not be empty' : `must have at least ${limit} items`;
  return { pointer: error.instancePath, message: `${subject(error.instancePath)} ${what}`, hint: limit === 1 ? 'add at least one item' : `add at least ${limit} items` };
}

/** type, pattern, minimum, maxLength, ...: the value has the wrong shape. */
function wrongValue(error: ErrorObject): Message {
  const expected = expectation(error);
  const what = isAttributePointer(error.instancePath) ? `attribute "${lastToken(error.instancePath)}"` : subject(error.instancePath);
  const last = lastToken(error.instancePath);
  const key = error.instancePath === '' ? 'the file' : /^\d+$/.test(last) ? subject(error.instancePath) : `"${last}"`;
  const corrected = correction(error);
  const hint = corrected === undefined ? fixFor(key, expected, error.parentSchema) : `use ${JSON.stringify(corrected)}`;
  return { pointer: error.instancePath, message: `${what} ${expected}`, hint };
}

/** For names in the wrong case, the name the author most likely meant. */
function correction(error: ErrorObject): string | undefined {
  const pattern = asSchema(error.parentSchema)?.['pattern'];
  const value: unknown = error.data;
  if (typeof value !== 'string' || error.keyword !== 'pattern') return undefined;
  const fixed = pattern === KEBAB_CASE ? snakeWords(value).join('-') : pattern === TABLE_NAME ? snakeCase(value) : undefined;
  return fixed !== undefined && fixed !== '' && new RegExp(String(pattern)).test(fixed) ? fixed : undefined;
}

/** "must be ..." for the failing value, from the schema's own errorMessage when it has one. */
function expectation(error: ErrorObject): string {
  const schema = asSchema(error.parentSchema);
  const custom = schema?.['errorMessage'];
  if (typeof custom === 'string') return custom;
  switch (error.keyword) {
    case 'type':
      return `must be ${typeName(schema)}`;
    case 'minLength':
      return Number(error.params['limit']) === 1 ? 'must not be empty' : `must be at least ${String(error.params['limit'])} characters long`;
    case 'maxLength':
      return `must be at most ${String(error.params['limit'])} characters long`;
    case 'maxItems':
      return `must have at most ${String(error.params['limit'])} items`;
    case 'minimum':
      return `must be at least ${String(error.params['limit'])}`;
    case 'const':
      return `must be ${JSON.stringify(error.params['allowedValue'])}`;
    default:
      return error.message ?? 'is not valid';
  }
}

function fixFor(key: string, expected: string, parentSchema: unknown): string {
  const examples = asSchema(parentSchema)?.['examples'];
  const described = expected.includes(' like ') || expected.includes('e.g.');
  const example = Array.isArray(examples) && examples.length > 0 && !described ? `, e.g. ${JSON.stringify(examples[0])}` : '';
  if (key === 'the file') return 'write the schema as one JSON object: {"kind": ..., "info": ..., "attributes": ...}';
  return expected.startsWith('must be ') ? `set ${key} to ${expected.slice('must be '.length)}${example}` : `change ${key} so that it ${expected}`;
}

function typeName(schema: JsonSchema | undefined): string {
  const type = schema?.['type'];
  const items = asSchema(schema?.['items']);
  switch (type) {
    case 'string':
      return 'a string';
    case 'integer':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'object':
      return 'an object';
    case 'array':
      return items?.['type'] === 'string' ? 'an array of strings' : 'an array';
    default:
      return Array.isArray(type) ? type.join(' or ') : 'a valid value';
  }
}

/** How a pointer is named in a message: relative to its attribute, or to the file. */
export function subject(pointer: string): string {
  const tokens = parsePointer(pointer);
  const inAttribute = tokens[0] === 'attributes' && tokens.length >= 2;
  if (inAttribute && tokens.length === 2) return `attribute "${tokens[1]}"`;
  const rest = inAttribute ? tokens.slice(2) : tokens;
  if (rest.length === 0) return 'the schema';
  const path = rest.map((t, i) => (/^\d+$/.test(t) ? `[${t}]` : i === 0 ? t : `.${t}`)).join('');
  return `"${path}"`;
}

export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** `/attributes/<name>` exactly. */
export function isAttributePointer(pointer: string): boolean {
  const tokens = parsePointer(pointer);
  return tokens.length === 2 && tokens[0] === 'attributes';
}

/** The attribute pointer a pointer lies in, if any. */
export function attributePointerOf(pointer: string): string | undefined {
  const tokens = parsePointer(pointer);
  return tokens[0] === 'attributes' && tokens.length >= 2 ? buildPointer('attributes', tokens[1]!) : undefined;
}

function parentPointer(pointer: string): string {
  return pointer.slice(0, Math.max(0, pointer.lastIndexOf('/')));
}

function lastToken(pointer: string): string {
  return parsePointer(pointer).at(-1) ?? '';
}

function attributeType(error: ErrorObject): AttributeTypeName | undefined {
  if (!isAttributePointer(error.instancePath)) return undefined;
  const data: unknown = error.data;
  const type = typeof data === 'object' && data !== null ? (data as Record<string, unknown>)['type'] : undefined;
  return (ATTRIBUTE_TYPES as readonly unknown[]).includes(type) ? (type as AttributeTypeName) : undefined;
}

function isOptionOfSomeType(key: string): boolean {
  return ATTRIBUTE_TYPES.some((t) => key in ATTRIBUTE_OPTIONS[t]);
}

function asSchema(value: unknown): JsonSchema | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as JsonSchema) : undefined;
}

function propertiesOf(schema: unknown): Record<string, unknown> {
  const properties = asSchema(schema)?.['properties'];
  return typeof properties === 'object' && properties !== null ? (properties as Record<string, unknown>) : {};
}

function propertySchema(schema: unknown, key: string): JsonSchema | undefined {
  return asSchema(propertiesOf(schema)[key]);
}

/** First sentence, lower-cased start and no final period, to fit after a colon. */
function sentence(text: string): string {
  const first = text.split(/\.(?=\s+[A-Z]|$)/)[0] ?? text;
  // Lower-case "Human-readable", keep acronyms such as "UID" and "API".
  return /^[A-Z][a-z]/.test(first) ? first[0]!.toLowerCase() + first.slice(1) : first;
}
