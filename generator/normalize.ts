/**
 * normalize: turns the schema files Strapi writes into the canonical form the semantic rules and
 * the model builder read, without changing a single JSON pointer (keys are only removed or
 * rewritten in place, so diagnostics still point into the author's file).
 *
 * - a custom field becomes the built-in type its plugin stores (`CUSTOM_FIELDS`, and the
 *   project's own mappings from capi.config.json), with the value the plugin fills on create
 *   (`default`, `generated`); an unknown one is served as json, with a warning naming it;
 * - keys that do not change the content API (`IGNORED_ATTRIBUTE_KEYS`) are dropped;
 * - keys no schema knows, which Strapi boots with and ignores (a hand-written `description`, a
 *   Strapi 4 `connection`), get a note each (validate/structural.ts; near-misses stay errors);
 * - `options.privateAttributes` marks each attribute it names `private`, as Strapi does;
 * - a relation to a type capi does not generate (`admin::user`, another plugin's types, ...) and a polymorphic (`morph*`) relation are left out of the API, with a
 *   note, instead of failing the model.
 *
 * The structural pass still sees the raw file, so the published JSON Schemas stay the contract
 * for what an author may write; everything after it sees the normalized one.
 */
import type { SchemaFile } from './load.ts';
import { pointer } from './diagnostics.ts';
import { ATTRIBUTE_OPTIONS, CUSTOM_FIELDS, CUSTOM_FIELD_TYPE, IGNORED_ATTRIBUTE_KEYS, POLYMORPHIC_RELATION_KINDS, UNKNOWN_CUSTOM_FIELD_STORAGE, type CustomFieldMapping } from './validate/catalog.ts';
import { PROJECT_CONFIG_FILE } from './project-config.ts';
import { ignoredKeyNotes } from './validate/structural.ts';
import { isLocalized, record } from './validate/view.ts';

/** Something capi did with the input that the author should hear about, though it is no error. */
export interface Note {
  readonly file: string;
  readonly pointer: string;
  readonly message: string;
  /** A warning: capi serves the input, but likely not as its author expects (an unmapped custom field). */
  readonly warning?: boolean;
}

export interface Normalized {
  readonly files: readonly SchemaFile[];
  readonly notes: readonly Note[];
}

type Json = Record<string, unknown>;

/** `customFields`: the project's mappings (capi.config.json), over capi's own. */
export function normalizeSchemas(files: readonly SchemaFile[], customFields: Readonly<Record<string, CustomFieldMapping>> = {}): Normalized {
  const notes: Note[] = [];
  const generated = new Set(files.map((f) => f.uid));
  const mappings = { ...CUSTOM_FIELDS, ...customFields };
  return { files: files.map((file) => normalizeFile(file, generated, mappings, notes)), notes };
}

type Mappings = Readonly<Record<string, CustomFieldMapping>>;

function normalizeFile(file: SchemaFile, generated: ReadonlySet<string>, mappings: Mappings, notes: Note[]): SchemaFile {
  notes.push(...ignoredKeyNotes(file));
  const root = record(file.json);
  const attributes = record(root?.['attributes']);
  if (root === undefined || attributes === undefined) return file;
  const privateNames = privateAttributes(root);
  const typeLocalized = file.kind === 'content-type' && isLocalized(root);
  const normalized: Json = {};
  for (const [name, value] of Object.entries(attributes)) {
    const attribute = record(value);
    const at = pointer('attributes', name);
    const reason = attribute === undefined ? undefined : notServed(name, attribute, generated);
    if (reason !== undefined) {
      notes.push({ file: file.path, pointer: at, message: reason });
      continue;
    }
    if (attribute === undefined) normalized[name] = value;
    else {
      if (isLocalized(attribute) && !typeLocalized && !FOLLOW_TYPE_LOCALE.includes(attribute['type'])) notes.push(ineffectiveLocalized(file, at));
      normalized[name] = normalizeAttribute(attribute, privateNames.has(name), file, at, mappings, notes);
    }
  }
  return { ...file, json: { ...root, attributes: normalized } };
}

/** Why an attribute is left out of the API: a polymorphic relation, or one to a type capi does not generate. */
function notServed(name: string, attribute: Readonly<Json>, generated: ReadonlySet<string>): string | undefined {
  if (attribute['type'] !== 'relation') return undefined;
  const kind = attribute['relation'];
  if ((POLYMORPHIC_RELATION_KINDS as readonly unknown[]).includes(kind)) {
    return `polymorphic relation "${name}" (${String(kind)}) is not served (see docs/moving-from-strapi.md)`;
  }
  const target = attribute['target'];
  if (typeof target === 'string' && isOutsideModel(target, generated)) {
    return `relation "${name}" to ${target} is not served: capi does not generate ${target} yet (see docs/moving-from-strapi.md)`;
  }
  return undefined;
}

/** Relations and uids follow their type's localization whatever their flag says. */
const FOLLOW_TYPE_LOCALE: readonly unknown[] = ['relation', 'uid'];

/** Strapi accepts `localized` where it has no effect, and ignores it; so does capi, but says so. */
function ineffectiveLocalized(file: SchemaFile, at: string): Note {
  const where = file.kind === 'component' ? 'in a component (a component follows the field that holds it)' : 'on a type that is not localized';
  return { file: file.path, pointer: `${at}/pluginOptions/i18n/localized`, message: `"localized" has no effect ${where}` };
}

function normalizeAttribute(attribute: Readonly<Json>, markedPrivate: boolean, file: SchemaFile, at: string, mappings: Mappings, notes: Note[]): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(attribute)) if (!(key in IGNORED_ATTRIBUTE_KEYS)) out[key] = value;
  if (markedPrivate) out['private'] = true;
  if (attribute['type'] !== CUSTOM_FIELD_TYPE) return out;
  return customField(attribute, out, file, at, mappings, notes);
}

/**
 * The custom field as its stored type, keeping only the options that type takes, with the
 * mapping's default (when the attribute sets none) and generated value.
 */
function customField(attribute: Readonly<Json>, kept: Json, file: SchemaFile, at: string, mappings: Mappings, notes: Note[]): Json {
  const uid = attribute['customField'];
  const known = typeof uid === 'string' && Object.hasOwn(mappings, uid) ? mappings[uid] : undefined;
  const type = known?.type ?? UNKNOWN_CUSTOM_FIELD_STORAGE;
  if (known === undefined) {
    notes.push({
      file: file.path,
      pointer: at,
      message: `custom field ${typeof uid === 'string' ? uid : '(no uid)'} is unknown to capi: served as ${type}; map it to its stored type under "customFields" in ${PROJECT_CONFIG_FILE}`,
      warning: true,
    });
  }
  const options = ATTRIBUTE_OPTIONS[type];
  const out: Json = { type };
  for (const [key, value] of Object.entries(kept)) if (key in options) out[key] = value;
  if (known?.default !== undefined && out['default'] === undefined) out['default'] = known.default;
  if (known?.generate !== undefined) out['generated'] = known.generate;
  return out;
}

/** Strapi's `options.privateAttributes`: a list of attribute names to hide. */
function privateAttributes(root: Readonly<Json>): ReadonlySet<string> {
  const list = record(root['options'])?.['privateAttributes'];
  return new Set(Array.isArray(list) ? list.filter((n): n is string => typeof n === 'string') : []);
}

/**
 * A plugin's or the admin's content type: not one capi generates. An `api::` target that does
 * not exist stays an error (a typo), reported by the relation rules.
 */
function isOutsideModel(target: string, generated: ReadonlySet<string>): boolean {
  return !generated.has(target) && /^(plugin|admin|strapi)::/.test(target);
}

/** `file #pointer: message`, the shape of a diagnostic without a fix (nothing needs fixing). */
export function formatNote(note: Note): string {
  const label = note.warning === true ? 'warning' : 'note';
  return note.pointer === '' ? `  ${label}: ${note.file}: ${note.message}` : `  ${label}: ${note.file} #${note.pointer}: ${note.message}`;
}
