/** Name derivations shared by the model builder and the validator (so both agree on collisions). */

/**
 * One word, as lodash's `words` matches it (its `reUnicodeWord`), restricted to ASCII: a
 * capitalised or lower-case run (`Reading`, `note`), an acronym up to the capital that starts
 * the next word (`HTML` in `HTMLPage`), an ordinal (`1st`, `2ND`, `4th`), or a run of digits.
 * Digits are words of their own, so `h2o` is `h`, `2`, `o`.
 */
const WORD = new RegExp(
  [
    '[A-Z]?[a-z]+(?=[^A-Za-z0-9]|[A-Z]|$)',
    '[A-Z]+(?=[^A-Za-z0-9]|[A-Z][a-z]|$)',
    '[A-Z]?[a-z]+',
    '[A-Z]+',
    '\\d*(?:1ST|2ND|3RD|(?![123])\\dTH)(?=\\b|[a-z_])',
    '\\d*(?:1st|2nd|3rd|(?![123])\\dth)(?=\\b|[A-Z_])',
    '\\d+',
  ].join('|'),
  'g',
);

/**
 * Splits a name into words exactly as lodash's `camelCase`, `upperFirst` and friends do (and so
 * as Strapi derives its GraphQL type names) for ASCII names: `internal-note` → internal, note;
 * `readingTime` → reading, Time; `HTMLPage` → HTML, Page; `h2o-reading` → h, 2, o, reading;
 * `i18n-locale` → i, 18, n, locale. Apostrophes are dropped first (lodash's compounders do);
 * every other character that is not an ASCII letter or digit separates words.
 */
export function words(name: string): string[] {
  return name.replace(/['\u2019]/g, '').match(WORD) ?? [];
}

/** lodash `upperFirst(camelCase(name))`: `h2o-reading` → `H2OReading`, `i18n-locale` → `I18NLocale`. */
export function pascalCase(name: string): string {
  return words(name).map(capitalize).join('');
}

/** lodash `camelCase(name)`: `h2o-reading` → `h2OReading`, `HTML-page` → `htmlPage`. */
export function camelCase(name: string): string {
  return words(name)
    .map((w, i) => (i === 0 ? w.toLowerCase() : capitalize(w)))
    .join('');
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

/**
 * The words of a column or table name. Unlike {@link words}, digits stay with the letters
 * around them (`h2oLevel` → h2o, level; `address2` → address2): this is how capi has always
 * named columns, and changing it would rename the columns of existing databases. Words still
 * break at a lower-case letter or digit followed by a capital (`readingTime`, `v2Api`), before
 * the last capital of an acronym (`HTMLPage`), and at every other character.
 */
export function snakeWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

/**
 * Column names: `readingTime` → `reading_time`, `internal-note` → `internal_note`,
 * `h2oLevel` → `h2o_level` (Strapi's lodash `snakeCase` would give `h_2_o_level`; see
 * {@link snakeWords} for why capi keeps digits attached).
 */
export function snakeCase(name: string): string {
  return snakeWords(name).join('_');
}

/**
 * What Strapi puts before a content type's names when a plugin defines it: the plugin's name
 * (`plugin::users-permissions.user` is `UsersPermissionsUser`, `usersPermissionsUsers`); nothing
 * for a project's own `api::` types.
 */
export function pluginPrefix(uid: string): string {
  const plugin = /^plugin::([^.]+)\./.exec(uid)?.[1];
  return plugin === undefined ? '' : pascalCase(plugin);
}

/** GraphQL (and TypeScript) name of a component type, as Strapi's GraphQL plugin names it. */
export function componentTypeName(uid: string): string {
  const [category = '', name = ''] = uid.split('.');
  return `Component${pascalCase(category)}${pascalCase(name)}`;
}

/** Default table of a component whose schema has no collectionName (Strapi's convention). */
export function componentTable(uid: string): string {
  const [category = '', name = ''] = uid.split('.');
  return `components_${snakeCase(category)}_${snakeCase(name)}s`;
}

export function linkTableName(ownerTable: string, attribute: string): string {
  return `${ownerTable}_${snakeCase(attribute)}_lnk`;
}

/**
 * Columns every content-type table has besides its attributes, by the names an index in a schema
 * may give them (Strapi's column name or the attribute-style name), to the Prisma field name.
 * `locale` exists on localized types only.
 */
export const SYSTEM_INDEX_COLUMNS: ReadonlyMap<string, string> = new Map([
  ['document_id', 'documentId'],
  ['documentId', 'documentId'],
  ['locale', 'locale'],
  ['published_at', 'publishedAt'],
  ['publishedAt', 'publishedAt'],
  ['created_at', 'createdAt'],
  ['createdAt', 'createdAt'],
  ['updated_at', 'updatedAt'],
  ['updatedAt', 'updatedAt'],
]);
