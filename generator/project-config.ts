/**
 * capi.config.json: the generator's settings of a project, in the folder given to
 * `--content-types` (or, for a Strapi project passed by its `src`, the project's root). One key:
 *
 *   { "customFields": { "plugin::acme.map-pin": { "type": "json" },
 *                       "plugin::acme.ref": { "type": "string", "default": "none" },
 *                       "plugin::acme.id": { "type": "uid", "generate": "uuid" } } }
 *
 * Each entry says how a plugin's custom field is served (the stored type Strapi's plugin
 * registers, and what its lifecycle hook fills on create); it replaces capi's own entry for the
 * same field (CUSTOM_FIELDS). A problem in the file is a diagnostic like a schema problem.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { GENERATED_VALUES } from '../templates/contract/generated-values.ts';
import { SCALAR_TYPE_NAMES } from '../templates/contract/scalar-types.ts';
import { pointer, type Diagnostic } from './diagnostics.ts';
import type { JsonValue } from './model/types.ts';
import type { CustomFieldMapping, ScalarTypeName } from './validate/catalog.ts';
import { didYouMean } from './validate/suggest.ts';

export const PROJECT_CONFIG_FILE = 'capi.config.json';

export interface ProjectConfig {
  readonly customFields: Readonly<Record<string, CustomFieldMapping>>;
}

export const EMPTY_PROJECT_CONFIG: ProjectConfig = { customFields: {} };

const TOP_KEYS = ['$schema', 'customFields'];
const ENTRY_KEYS = ['type', 'default', 'generate'];

/** The project's capi.config.json, looked for in `dir`, then above a `src` folder; none is no error. */
export function loadProjectConfig(dir: string): { config: ProjectConfig; diagnostics: Diagnostic[] } {
  const candidates = [join(dir, PROJECT_CONFIG_FILE), ...(basename(dir) === 'src' ? [join(dirname(dir), PROJECT_CONFIG_FILE)] : [])];
  const path = candidates.find((candidate) => existsSync(candidate));
  if (path === undefined) return { config: EMPTY_PROJECT_CONFIG, diagnostics: [] };
  const diagnostics: Diagnostic[] = [];
  const problem = (at: string, message: string, hint: string): void => void diagnostics.push({ file: PROJECT_CONFIG_FILE, pointer: at, message, hint });
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    problem('', `${PROJECT_CONFIG_FILE} is not valid JSON: ${(error as Error).message}`, 'write it as one JSON object: {"customFields": {...}}');
    return { config: EMPTY_PROJECT_CONFIG, diagnostics };
  }
  if (!isObject(json)) {
    problem('', `${PROJECT_CONFIG_FILE} must be an object`, 'write it as one JSON object: {"customFields": {...}}');
    return { config: EMPTY_PROJECT_CONFIG, diagnostics };
  }
  for (const key of Object.keys(json)) if (!TOP_KEYS.includes(key)) problem(pointer(key), `unknown key "${key}"`, `${didYouMean(key, TOP_KEYS)}keys allowed here: customFields`);
  const entries = json['customFields'] ?? {};
  if (!isObject(entries)) {
    problem(pointer('customFields'), '"customFields" must be an object', 'map each custom field UID to {"type": ..., "default"?: ..., "generate"?: ...}');
    return { config: EMPTY_PROJECT_CONFIG, diagnostics };
  }
  const customFields: Record<string, CustomFieldMapping> = {};
  for (const [uid, entry] of Object.entries(entries)) {
    const mapping = customFieldMapping(entry, pointer('customFields', uid), problem);
    if (mapping !== undefined) customFields[uid] = mapping;
  }
  return { config: { customFields }, diagnostics };
}

function customFieldMapping(entry: unknown, at: string, problem: (at: string, message: string, hint: string) => void): CustomFieldMapping | undefined {
  if (!isObject(entry)) {
    problem(at, 'a custom field mapping must be an object', 'write {"type": "string"} (and "default" or "generate" when the plugin fills a value)');
    return undefined;
  }
  let ok = true;
  for (const key of Object.keys(entry)) {
    if (ENTRY_KEYS.includes(key)) continue;
    problem(`${at}${pointer(key)}`, `unknown key "${key}"`, `${didYouMean(key, ENTRY_KEYS)}keys allowed here: ${ENTRY_KEYS.join(', ')}`);
    ok = false;
  }
  const type = entry['type'];
  if (!(SCALAR_TYPE_NAMES as readonly unknown[]).includes(type)) {
    const given = typeof type === 'string' ? didYouMean(type, SCALAR_TYPE_NAMES) : '';
    problem(`${at}/type`, `"type" must be the stored type, one of the scalar types (got ${JSON.stringify(type) ?? 'nothing'})`, `${given}use one of: ${SCALAR_TYPE_NAMES.join(', ')}`);
    ok = false;
  }
  const generate = entry['generate'];
  if (generate !== undefined && !(GENERATED_VALUES as readonly unknown[]).includes(generate)) {
    problem(`${at}/generate`, `"generate" must be one of ${GENERATED_VALUES.join(', ')} (got ${JSON.stringify(generate)})`, `use one of: ${GENERATED_VALUES.join(', ')}`);
    ok = false;
  }
  if (!ok) return undefined;
  return {
    type: type as ScalarTypeName,
    ...(entry['default'] === undefined ? {} : { default: entry['default'] as JsonValue }),
    ...(generate === undefined ? {} : { generate: generate as CustomFieldMapping['generate'] & string }),
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
