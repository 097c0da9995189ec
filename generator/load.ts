/**
 * load: finds the schema files of a model and parses them, keeping a source map of every
 * JSON pointer so that later diagnostics can name a line and column.
 *
 * Two layouts are understood and detected automatically:
 * - flat:   DIR/<singularName>.json and DIR/components/<category>/<name>.json
 * - strapi: a Strapi project (DIR/src or DIR itself holding api/ and components/):
 *           api/<api>/content-types/<name>/schema.json and components/<category>/<name>.json
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import jsonSourceMap from 'json-source-map';
import { BUILTIN_PATH, REQUIRED_USER_ATTRIBUTES, ROLE_SCHEMA, ROLE_UID, USER_EXTENSION_PATH, USER_SCHEMA, USER_UID } from './builtin/users-permissions.ts';
import type { Diagnostic } from './diagnostics.ts';
import { EMPTY_PROJECT_CONFIG, loadProjectConfig, PROJECT_CONFIG_FILE, type ProjectConfig } from './project-config.ts';

export type SchemaFileKind = 'content-type' | 'component';

export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

export interface SchemaFile {
  readonly kind: SchemaFileKind;
  /** Path relative to the content-types directory, with forward slashes. */
  readonly path: string;
  /** UID implied by the file's location: `api::<api>.<name>` or `<category>.<name>`. */
  readonly uid: string;
  readonly json: unknown;
  /** 1-based position of a JSON pointer's value (or of the closest parent that exists). */
  locate(pointer: string): SourcePosition | undefined;
}

export interface LoadedSchemas {
  readonly layout: 'flat' | 'strapi';
  /** Directory the `path`s are relative to. */
  readonly root: string;
  /** Sorted by path. */
  readonly files: readonly SchemaFile[];
  /** Unreadable or unparsable files and layout problems. */
  readonly diagnostics: readonly Diagnostic[];
  /** capi.config.json (project-config.ts); empty when the project has none. */
  readonly config: ProjectConfig;
}

interface Candidate {
  readonly kind: SchemaFileKind;
  readonly absolutePath: string;
  readonly uid: string;
}

export function loadSchemas(dir: string): LoadedSchemas {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    return {
      layout: 'flat',
      root: dir,
      config: EMPTY_PROJECT_CONFIG,
      files: [],
      diagnostics: [
        {
          file: dir,
          pointer: '',
          message: 'content-types directory does not exist',
          hint: 'pass --content-types DIR pointing at a folder of schema files',
        },
      ],
    };
  }
  // A Strapi project is recognised by its api/ folder, at DIR/src/api or DIR/api.
  const strapiRoot = [join(dir, 'src'), dir].find((d) => isDir(join(d, 'api')));
  const layout = strapiRoot === undefined ? 'flat' : 'strapi';
  const root = strapiRoot ?? dir;
  const candidates = layout === 'strapi' ? strapiCandidates(root) : flatCandidates(root);
  const files: SchemaFile[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const candidate of candidates) {
    const path = toPosix(relative(root, candidate.absolutePath));
    const parsed = parseFile(candidate.absolutePath, path);
    if ('diagnostic' in parsed) diagnostics.push(parsed.diagnostic);
    else files.push({ kind: candidate.kind, path, uid: candidate.uid, ...parsed });
  }
  const projectFiles = files.length;
  files.push(...usersPermissionsFiles(root, layout, diagnostics, files));
  files.sort((a, b) => compare(a.path, b.path));
  if (projectFiles === 0 && diagnostics.length === 0) {
    diagnostics.push({
      file: toPosix(dir),
      pointer: '',
      message: 'no content-type schema files found',
      hint: 'add DIR/<singularName>.json files, or point --content-types at a Strapi project',
    });
  }
  const project = loadProjectConfig(dir);
  diagnostics.push(...project.diagnostics);
  return { layout, root, files, diagnostics, config: project.config };
}

/**
 * The users-permissions user and role, built into every model; the user is the project's
 * extension schema when it has one (see builtin/users-permissions.ts).
 */
function usersPermissionsFiles(root: string, layout: 'flat' | 'strapi', diagnostics: Diagnostic[], projectFiles: readonly SchemaFile[]): SchemaFile[] {
  const role = builtinFile(BUILTIN_PATH.role, ROLE_UID, ROLE_SCHEMA);
  const extension = join(root, ...USER_EXTENSION_PATH[layout].split('/'));
  if (!isFile(extension)) return [role, builtinFile(BUILTIN_PATH.user, USER_UID, withInverses(USER_SCHEMA, projectFiles))];
  const path = USER_EXTENSION_PATH[layout];
  const parsed = parseFile(extension, path);
  if ('diagnostic' in parsed) {
    diagnostics.push(parsed.diagnostic);
    return [role];
  }
  const attributes = (parsed.json as { attributes?: unknown } | null)?.attributes;
  const missing = REQUIRED_USER_ATTRIBUTES.filter((name) => attributes === null || typeof attributes !== 'object' || !(name in attributes));
  if (missing.length > 0) {
    diagnostics.push({
      file: path,
      pointer: '/attributes',
      message: `the user type's extension lacks the plugin's attribute(s) ${missing.map((m) => `"${m}"`).join(', ')}`,
      hint: "the extension replaces the plugin's user schema: keep its attributes as Strapi defines them and add yours (see docs/users.md)",
      ...parsed.locate('/attributes'),
    });
  }
  for (const [name, type] of changedUserTypes(attributes)) {
    const builtin = USER_SCHEMA.attributes[name].type;
    diagnostics.push({
      file: path,
      pointer: `/attributes/${name}/type`,
      message: `the user type's extension makes the plugin's attribute "${name}" a "${type}"; the plugin's is a "${builtin}"`,
      hint:
        name === 'password'
          ? 'keep "type": "password": sign-in stores a bcrypt hash of it and never returns it, where a "string" would be stored and answered as given'
          : `keep "type": "${builtin}": sign-in, registration and the password flows rely on it (see docs/users.md)`,
      ...parsed.locate(`/attributes/${name}/type`),
    });
  }
  return [role, { kind: 'content-type', path, uid: USER_UID, ...parsed }];
}

/** The plugin's attributes an extension declares with another type than the plugin's, with that type. */
function changedUserTypes(attributes: unknown): [(typeof REQUIRED_USER_ATTRIBUTES)[number], string][] {
  if (attributes === null || typeof attributes !== 'object') return [];
  return REQUIRED_USER_ATTRIBUTES.flatMap((name) => {
    const declared = (attributes as Record<string, unknown>)[name];
    const type = declared !== null && typeof declared === 'object' ? (declared as { type?: unknown }).type : undefined;
    return type === undefined || type === USER_SCHEMA.attributes[name].type ? [] : [[name, String(type)]];
  });
}

const INVERSE_KIND: Readonly<Record<string, string>> = { oneToOne: 'oneToOne', oneToMany: 'manyToOne', manyToOne: 'oneToMany', manyToMany: 'manyToMany' };

/**
 * The built-in user with the other side of each relation a project's type declares to it
 * (`author` with `inversedBy: "articles"`): a Strapi project keeps that side in its user
 * extension, and a project without one gets it here rather than a refused schema.
 */
function withInverses(schema: typeof USER_SCHEMA, projectFiles: readonly SchemaFile[]): unknown {
  const attributes: Record<string, unknown> = { ...schema.attributes };
  for (const file of projectFiles) {
    if (file.kind !== 'content-type') continue;
    const fileAttributes = (file.json as { attributes?: Record<string, Record<string, unknown>> } | null)?.attributes;
    for (const [name, attribute] of Object.entries(fileAttributes ?? {})) {
      if (attribute === null || typeof attribute !== 'object' || attribute['target'] !== USER_UID) continue;
      const kind = INVERSE_KIND[String(attribute['relation'])];
      for (const [side, other] of [
        ['inversedBy', 'mappedBy'],
        ['mappedBy', 'inversedBy'],
      ] as const) {
        const inverse = attribute[side];
        if (kind === undefined || typeof inverse !== 'string' || inverse in attributes) continue;
        attributes[inverse] = { type: 'relation', relation: kind, target: file.uid, [other]: name };
      }
    }
  }
  return { ...schema, attributes };
}

function builtinFile(path: string, uid: string, json: unknown): SchemaFile {
  return { kind: 'content-type', path, uid, json: structuredClone(json), locate: () => undefined };
}

function flatCandidates(root: string): Candidate[] {
  const out: Candidate[] = [];
  for (const entry of listDir(root)) {
    const abs = join(root, entry);
    if (entry.endsWith('.json') && entry !== PROJECT_CONFIG_FILE && isFile(abs)) {
      const name = entry.slice(0, -'.json'.length);
      out.push({ kind: 'content-type', absolutePath: abs, uid: `api::${name}.${name}` });
    }
  }
  return [...out, ...componentCandidates(join(root, 'components'))];
}

function strapiCandidates(root: string): Candidate[] {
  const out: Candidate[] = [];
  const apiDir = join(root, 'api');
  for (const api of listDir(apiDir)) {
    const typesDir = join(apiDir, api, 'content-types');
    for (const name of listDir(typesDir)) {
      const abs = join(typesDir, name, 'schema.json');
      if (isFile(abs)) out.push({ kind: 'content-type', absolutePath: abs, uid: `api::${api}.${name}` });
    }
  }
  return [...out, ...componentCandidates(join(root, 'components'))];
}

function componentCandidates(dir: string): Candidate[] {
  const out: Candidate[] = [];
  for (const category of listDir(dir)) {
    for (const entry of listDir(join(dir, category))) {
      const abs = join(dir, category, entry);
      if (entry.endsWith('.json') && isFile(abs)) {
        out.push({ kind: 'component', absolutePath: abs, uid: `${category}.${entry.slice(0, -'.json'.length)}` });
      }
    }
  }
  return out;
}

type Parsed = Pick<SchemaFile, 'json' | 'locate'> | { diagnostic: Diagnostic };

function parseFile(absolutePath: string, path: string): Parsed {
  let text: string;
  try {
    text = readFileSync(absolutePath, 'utf8');
  } catch (error) {
    return { diagnostic: { file: path, pointer: '', message: `cannot read file: ${(error as Error).message}`, hint: 'check the file permissions' } };
  }
  try {
    const { data, pointers } = jsonSourceMap.parse(text);
    const locate = (pointer: string): SourcePosition | undefined => {
      for (let p = pointer; ; p = p.slice(0, p.lastIndexOf('/'))) {
        const hit = pointers[p];
        if (hit) return { line: hit.value.line + 1, column: hit.value.column + 1 };
        if (p === '') return undefined;
      }
    };
    return { json: data, locate };
  } catch (error) {
    // The source-map parser recurses: thousands of nested arrays overflow its stack.
    if (error instanceof RangeError) {
      return { diagnostic: { file: path, pointer: '', message: 'the JSON is nested too deeply to read', hint: 'flatten its deepest value (a default, say) to a few levels' } };
    }
    const message = (error as Error).message;
    const at = /position (\d+)/.exec(message);
    const position = at ? lineColumn(text, Number(at[1])) : undefined;
    return {
      diagnostic: {
        file: path,
        pointer: '',
        message: `invalid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}`,
        hint: 'fix the JSON syntax (a trailing comma or a missing quote is the usual cause)',
        ...position,
      },
    };
  }
}

function lineColumn(text: string, offset: number): SourcePosition {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}

function listDir(dir: string): string[] {
  if (!isDir(dir)) return [];
  return readdirSync(dir).sort(compare);
}

function isDir(p: string): boolean {
  return existsSync(p) && statSync(p).isDirectory();
}

function isFile(p: string): boolean {
  return existsSync(p) && statSync(p).isFile();
}

function toPosix(p: string): string {
  return p.split(sep).join('/');
}

/** Locale-independent ordering, so that output does not depend on the machine. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
