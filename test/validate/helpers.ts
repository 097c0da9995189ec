/**
 * Fixtures for the validate tests: small models written into a temp directory and loaded
 * through the real loader, so that paths, uids and positions are the ones users get.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { formatDiagnostic, type Diagnostic } from '../../generator/diagnostics.ts';
import { loadSchemas } from '../../generator/load.ts';
import { normalizeSchemas } from '../../generator/normalize.ts';
import { validateSchemas } from '../../generator/validate/index.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Attributes = { [name: string]: Json };

/** Writes `files` (path relative to the model root → JSON) into a fresh temp dir. */
export function writeModel(files: Readonly<Record<string, Json>>): string {
  const root = mkdtempSync(join(tmpdir(), 'capi-validate-'));
  for (const [path, json] of Object.entries(files)) {
    const target = join(root, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, `${JSON.stringify(json, null, 2)}\n`);
  }
  return root;
}

export function validateDir(dir: string): Diagnostic[] {
  const loaded = loadSchemas(dir);
  return [...loaded.diagnostics, ...validateSchemas(loaded.files, { customFields: loaded.config.customFields })];
}

export function validateModel(files: Readonly<Record<string, Json>>): Diagnostic[] {
  return validateDir(writeModel(files));
}

/** The formatted diagnostics without line and column: what each case asserts exactly. */
export function problems(files: Readonly<Record<string, Json>>): string[] {
  return validateModel(files).map((d) => formatDiagnostic({ file: d.file, pointer: d.pointer, message: d.message, hint: d.hint }));
}

/** The notes `capi validate` prints for a model that has no problem: `file #pointer: message`. */
export function notes(files: Readonly<Record<string, Json>>): string[] {
  const loaded = loadSchemas(writeModel(files));
  return normalizeSchemas(loaded.files, loaded.config.customFields).notes.map((n) => `${n.file} #${n.pointer}: ${n.message}`);
}

/** A valid collection type named `name` (singular), with the given attributes. */
export function contentType(name: string, attributes: Attributes, extra: { [key: string]: Json } = {}): Json {
  return {
    kind: 'collectionType',
    collectionName: `${name.replace(/-/g, '_')}s`,
    info: { singularName: name, pluralName: `${name}s`, displayName: name },
    options: { draftAndPublish: false },
    attributes,
    ...extra,
  };
}

/** A valid component with the given attributes. */
export function component(displayName: string, attributes: Attributes): Json {
  return { info: { displayName }, attributes };
}

/** A flat-layout model holding one content type `name` with `attributes`. */
export function single(name: string, attributes: Attributes, extra: { [key: string]: Json } = {}): Record<string, Json> {
  return { [`${name}.json`]: contentType(name, attributes, extra) };
}
