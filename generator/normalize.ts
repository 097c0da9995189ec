/**
 * normalize: turns the schema files Strapi writes into the canonical form the semantic rules and
 * the model builder read, without changing a single JSON pointer (keys are only removed or
 * rewritten in place, so diagnostics still point into the author's file).
 *
 * - a custom field becomes the built-in type its plugin stores (`CUSTOM_FIELD_STORAGE`);
 * - keys that do not change the content API (`IGNORED_ATTRIBUTE_KEYS`) are dropped;
 * - `options.privateAttributes` marks each attribute it names `private`, as Strapi does;
 * - a relation to a type capi does not generate (`plugin::users-permissions.user`,
 *   `admin::user`, ...) and a polymorphic (`morph*`) relation are left out of the API, with a
 *   note, instead of failing the model.
 *
 * The structural pass still sees the raw file, so the published JSON Schemas stay the contract
 * for what an author may write; everything after it sees the normalized one.
 */
import type { SchemaFile } from './load.ts';
import { pointer } from './diagnostics.ts';
import {
  ATTRIBUTE_OPTIONS,
  CUSTOM_FIELD_STORAGE,
  CUSTOM_FIELD_TYPE,
  IGNORED_ATTRIBUTE_KEYS,
  POLYMORPHIC_RELATION_KINDS,
  UNKNOWN_CUSTOM_FIELD_STORAGE,
} from './validate/catalog.ts';
import { isLocalized, record } from './validate/view.ts';

/** Something capi did with the input that the author should hear about, though it is no error. */
export interface Note {
  readonly file: string;
  readonly pointer: string;
  readonly message: string;
}

export interface Normalized {
  readonly files: readonly SchemaFile[];
  readonly notes: readonly Note[];
}

type Json = Record<string, unknown>;

export function normalizeSchemas(files: readonly SchemaFile[]): Normalized {
  const notes: Note[] = [];
  const generated = new Set(files.map((f) => f.uid));
  const out = files.map((file) => {
    const root = record(file.json);
    const attributes = record(root?.['attributes']);
    if (root === undefined || attributes === undefined) return file;
    const privateNames = privateAttributes(root);
    const typeLocalized = file.kind === 'content-type' && isLocalized(root);
    const normalized: Json = {};
    for (const [name, value] of Object.entries(attributes)) {
      const attribute = record(value);
      if (attribute === undefined) {
        normalized[name] = value;
        continue;
      }
      const at = pointer('attributes', name);
      const kind = attribute['type'] === 'relation' ? attribute['relation'] : undefined;
      if ((POLYMORPHIC_RELATION_KINDS as readonly unknown[]).includes(kind)) {
        notes.push({ file: file.path, pointer: at, message: `polymorphic relation "${name}" (${String(kind)}) is not served (see docs/moving-from-strapi.md)` });
        continue;
      }
      const target = attribute['type'] === 'relation' ? attribute['target'] : undefined;
      if (typeof target === 'string' && isOutsideModel(target, generated)) {
        notes.push({ file: file.path, pointer: at, message: `relation "${name}" to ${target} is not served: capi does not generate ${target} yet (see docs/moving-from-strapi.md)` });
        continue;
      }
      if (isLocalized(attribute) && !typeLocalized && attribute['type'] !== 'relation' && attribute['type'] !== 'uid') {
        // Strapi accepts the flag and ignores it; so does capi, but says so.
        const where = file.kind === 'component' ? 'in a component (a component follows the field that holds it)' : 'on a type that is not localized';
        notes.push({ file: file.path, pointer: `${at}/pluginOptions/i18n/localized`, message: `"localized" has no effect ${where}` });
      }
      normalized[name] = normalizeAttribute(attribute, privateNames.has(name), file, at, notes);
    }
    return { ...file, json: { ...root, attributes: normalized } };
  });
  return { files: out, notes };
}

function normalizeAttribute(attribute: Readonly<Json>, markedPrivate: boolean, file: SchemaFile, at: string, notes: Note[]): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(attribute)) if (!(key in IGNORED_ATTRIBUTE_KEYS)) out[key] = value;
  if (markedPrivate) out['private'] = true;
  if (attribute['type'] !== CUSTOM_FIELD_TYPE) return out;
  return customField(attribute, out, file, at, notes);
}

/** The custom field as its stored type, keeping only the options that type takes. */
function customField(attribute: Readonly<Json>, kept: Json, file: SchemaFile, at: string, notes: Note[]): Json {
  const uid = attribute['customField'];
  const known = typeof uid === 'string' ? CUSTOM_FIELD_STORAGE[uid] : undefined;
  const type = known ?? UNKNOWN_CUSTOM_FIELD_STORAGE;
  if (known === undefined) {
    notes.push({ file: file.path, pointer: at, message: `custom field ${typeof uid === 'string' ? uid : '(no uid)'} is unknown to capi: served as ${type}` });
  }
  const options = ATTRIBUTE_OPTIONS[type];
  const out: Json = { type };
  for (const [key, value] of Object.entries(kept)) if (key in options) out[key] = value;
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
  return note.pointer === '' ? `  note: ${note.file}: ${note.message}` : `  note: ${note.file} #${note.pointer}: ${note.message}`;
}
