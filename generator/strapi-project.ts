/**
 * What a Strapi project holds besides its schema files, and capi does not bring over by itself:
 * custom routes, controllers, services, policies, middlewares, lifecycle hooks, `src/extensions`,
 * `src/index` lifecycle code and plugin configuration. `capi generate` and `capi validate` list
 * each one with the place in the generated project's own code (src/extensions/index.ts, see
 * docs/extending.md) where it is ported, rather than dropping them without a word.
 *
 * Files Strapi generates and nobody edited (a core router, controller or service with no options,
 * the empty `register`/`bootstrap` of `src/index`, an empty `config/plugins`) do nothing capi
 * does not already do, and are not listed.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { USER_EXTENSION_PATH } from './builtin/users-permissions.ts';
import type { Note } from './normalize.ts';

/** The generated project's file for the user's own code (never written again by capi). */
export const EXTENSIONS_FILE = 'src/extensions/index.ts';

/** A part of a Strapi project, by what it is in Strapi's terms. */
type PartKind =
  | 'custom routes'
  | 'custom controller'
  | 'custom service'
  | 'policy'
  | 'middleware'
  | 'lifecycle hooks'
  | 'global policy'
  | 'global middleware'
  | 'plugin extension'
  | 'src/index lifecycle code'
  | 'document middleware'
  | 'plugin configuration'
  | 'admin panel customization';

/**
 * Where each kind of code goes in capi, given the content type uid it belongs to (when it has
 * one); one place, so that the listing and the docs agree.
 */
const COUNTERPARTS: Readonly<Record<PartKind, (uid: string) => string>> = {
  'custom routes': (uid) => `port to ${EXTENSIONS_FILE}: contentTypes['${uid}'].routes (route config: .config.<action>)`,
  'custom controller': (uid) => `port to ${EXTENSIONS_FILE}: contentTypes['${uid}'].controller`,
  'custom service': (uid) => `port to ${EXTENSIONS_FILE}: contentTypes['${uid}'].service`,
  policy: (uid) => `port to ${EXTENSIONS_FILE}: a Policy in contentTypes['${uid}'].config.<action>.policies`,
  middleware: (uid) => `port to ${EXTENSIONS_FILE}: a RouteMiddleware in contentTypes['${uid}'].config.<action>.middlewares (a default populate: .defaultQuery)`,
  'lifecycle hooks': (uid) => `port to ${EXTENSIONS_FILE}: contentTypes['${uid}'].lifecycles`,
  'global policy': () => `port to ${EXTENSIONS_FILE}: a Policy listed in each route's config.<action>.policies`,
  'global middleware': () => `port to ${EXTENSIONS_FILE}: middlewares.before / middlewares.after`,
  'plugin extension': () => `port to ${EXTENSIONS_FILE}: graphql (GraphQL plugin extensions); other plugins are not served, see docs/moving-from-strapi.md`,
  'src/index lifecycle code': () => `port to ${EXTENSIONS_FILE}: register / bootstrap (strapi.documents.use: documents)`,
  'document middleware': () =>
    `strapi.documents.use: port to ${EXTENSIONS_FILE}: documents; until then the request parameters it reads (e.g. populateDynamicZone) are ignored, and the server logs each once`,
  'plugin configuration': () => 'copy the values capi has to config/plugins.json; see docs/moving-from-strapi.md',
  'admin panel customization': () => 'not served: capi has no admin panel',
};

const API_FOLDERS: Readonly<Record<string, PartKind>> = {
  routes: 'custom routes',
  controllers: 'custom controller',
  services: 'custom service',
  policies: 'policy',
  middlewares: 'middleware',
};

const CODE = /\.(js|ts|mjs|cjs|json)$/;

/**
 * The parts of the Strapi project whose `src` folder is `src`, as notes with paths relative to
 * the project (`src/index.js`, `config/plugins.js`), in a stable order.
 */
export function unportedParts(src: string): Note[] {
  const notes: Note[] = [];
  const project = dirname(src);
  const add = (absolute: string, kind: PartKind, uid = ''): void => {
    notes.push({ file: toPosix(relative(project, absolute)), pointer: '', message: `${kind}: ${COUNTERPARTS[kind](uid)}` });
  };
  for (const api of list(join(src, 'api'))) {
    const apiDir = join(src, 'api', api);
    // A file belongs to the type it is named after (`controllers/article.ts`), else to the API's
    // only (or same-named) type, which is Strapi's usual layout.
    const types = list(join(apiDir, 'content-types'));
    const typeOf = (file: string): string => {
      const stem = baseName(file).replace(CODE, '');
      const type = types.includes(stem) ? stem : types.includes(api) ? api : (types[0] ?? api);
      return `api::${api}.${type}`;
    };
    for (const [folder, kind] of Object.entries(API_FOLDERS)) {
      for (const file of codeFiles(join(apiDir, folder))) if (!isCoreFactory(file)) add(file, kind, typeOf(file));
    }
    for (const type of types) {
      for (const file of codeFiles(join(apiDir, 'content-types', type))) if (/^lifecycles\./.test(baseName(file))) add(file, 'lifecycle hooks', `api::${api}.${type}`);
    }
  }
  for (const file of codeFiles(join(src, 'policies'))) add(file, 'global policy');
  for (const file of codeFiles(join(src, 'middlewares'))) add(file, 'global middleware');
  // The user type's extension schema is read as the user type (builtin/users-permissions.ts).
  const userExtension = join(src, ...USER_EXTENSION_PATH.strapi.split('/'));
  for (const file of allFiles(join(src, 'extensions'))) if (CODE.test(file) && file !== userExtension) add(file, 'plugin extension');
  for (const file of codeFiles(src)) if (/^index\./.test(baseName(file)) && !isEmptyIndex(file)) add(file, 'src/index lifecycle code');
  for (const file of allFiles(src)) if (/\.(js|ts|mjs|cjs)$/.test(file) && !file.startsWith(join(src, 'admin')) && usesDocumentMiddleware(file)) add(file, 'document middleware');
  if (allFiles(join(src, 'admin')).some((f) => /\.(js|jsx|ts|tsx)$/.test(f) && !/\.example\./.test(f))) add(join(src, 'admin'), 'admin panel customization');
  const config = join(project, 'config');
  for (const file of codeFiles(config)) if (/^plugins\./.test(baseName(file)) && !isEmptyPluginConfig(file)) add(file, 'plugin configuration');
  return notes;
}

/** `factories.createCoreRouter('api::x.x')` and its siblings, with no options: Strapi's default. */
function isCoreFactory(file: string): boolean {
  const code = stripped(file)
    .replace(/^['"]usestrict['"];?/, '')
    .replace(/import(type)?\{[^}]*\}from['"]@strapi\/strapi['"];?/g, '')
    .replace(/const\{[^}]*\}=require\(['"]@strapi\/strapi['"]\)(\.factories)?;?/g, '');
  return /^(exportdefault|module\.exports=)(factories\.)?createCore(Router|Controller|Service)\(['"][^'"]+['"]\);?$/.test(code);
}

/** Strapi's generated `src/index`: `register` and `bootstrap` with empty bodies, or nothing. */
function isEmptyIndex(file: string): boolean {
  const code = stripped(file);
  return /^(['"]usestrict['"];?)?(importtype[^;]*;)*(exportdefault|module\.exports=)\{((async)?(register|bootstrap|destroy)\([^)]*\)\{\},?)*\};?$/.test(code);
}

/**
 * `strapi.documents.use(...)` (or `documents.use` on a destructured service): a document service
 * middleware, which often reads request parameters of its own (`populateDynamicZone`) that
 * capi's content API does not read.
 */
function usesDocumentMiddleware(file: string): boolean {
  return /\bdocuments\.use\(/.test(stripped(file));
}

/** `export default () => ({})` and its CommonJS form. */
function isEmptyPluginConfig(file: string): boolean {
  const code = stripped(file);
  return /^(['"]usestrict['"];?)?(exportdefault|module\.exports=)(\([^)]*\)=>\(\{\}\)|\{\});?$/.test(code) || code === '{}';
}

/** The code without comments or whitespace: enough to recognise Strapi's generated files. */
function stripped(file: string): string {
  return readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1')
    .replace(/\s+/g, '');
}

function codeFiles(dir: string): string[] {
  return list(dir)
    .map((name) => join(dir, name))
    .filter((path) => CODE.test(path) && statSync(path).isFile());
}

function allFiles(dir: string): string[] {
  return list(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? allFiles(path) : [path];
  });
}

function list(dir: string): string[] {
  return existsSync(dir) && statSync(dir).isDirectory() ? readdirSync(dir).sort() : [];
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf(sep) + 1);
}

function toPosix(path: string): string {
  return path.split(sep).join('/');
}
