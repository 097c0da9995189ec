/**
 * Semantic checks on the names of types: where the file is, what its API names are, and whether
 * a derived route or table name collides with another type's or with capi's own (GraphQL type
 * names are checked by rules-graphql.ts).
 */
import { pointer } from '../diagnostics.ts';
import { camelCase } from '../model/names.ts';
import { finding, type Finding } from './finding.ts';
import { KEBAB_CASE } from './json-schema.ts';
import { RESERVED_TABLES, RESERVED_TABLE_PREFIXES, RESERVED_TYPE_NAMES } from './reserved.ts';
import { tableOf, type ModelView, type TypeView } from './view.ts';

const SINGULAR = pointer('info', 'singularName');
const PLURAL = pointer('info', 'pluralName');
const COLLECTION = pointer('collectionName');
/** Strapi's rule for component categories and names (they become GraphQL and table names). */
const COMPONENT_PART = /^[A-Za-z][A-Za-z0-9_-]*$/;

export function nameFindings(model: ModelView): Finding[] {
  return [
    ...model.types.flatMap(locationFindings),
    ...model.types.flatMap(ownNameFindings),
    ...model.types.flatMap(componentUidFindings),
    ...apiNameFindings(model.types),
    ...tableFindings(model.types),
  ];
}

/** Flat layout: `<singularName>.json`; Strapi layout: `api/<api>/content-types/<singularName>/schema.json`. */
function locationFindings(type: TypeView): Finding[] {
  const singular = type.singularName;
  // A name that is not kebab-case is reported by the schema, whose fix also fixes the file name.
  if (type.isComponent || singular === undefined || !new RegExp(KEBAB_CASE).test(singular)) return [];
  const segments = type.file.path.split('/');
  const strapi = segments.at(-1) === 'schema.json' && segments.length >= 2;
  const actual = strapi ? segments.at(-2)! : segments.at(-1)!.replace(/\.json$/, '');
  if (actual === singular) return [];
  return strapi
    ? [finding(type.file, SINGULAR, `folder "${actual}" does not match singularName "${singular}"`, `rename the folder to content-types/${singular}, or set "singularName" to "${actual}"`)]
    : [finding(type.file, SINGULAR, `file name "${actual}.json" does not match singularName "${singular}"`, `rename the file to ${singular}.json, or set "singularName" to "${actual}"`)];
}

function ownNameFindings(type: TypeView): Finding[] {
  const out: Finding[] = [];
  const { singularName: singular, pluralName: plural } = type;
  if (singular !== undefined && singular === plural) {
    out.push(finding(type.file, PLURAL, `pluralName "${plural}" is the same as singularName`, `use a distinct pluralName, e.g. "${singular}-items"`));
  }
  for (const [field, at, name] of [
    ['singularName', SINGULAR, singular],
    ['pluralName', PLURAL, plural],
  ] as const) {
    const reason = name === undefined ? undefined : RESERVED_TYPE_NAMES.get(name);
    if (reason !== undefined) out.push(finding(type.file, at, `${field} "${name}" is reserved: ${reason}`, `choose another ${field}, e.g. "my-${name}"`));
  }
  return out;
}

function componentUidFindings(type: TypeView): Finding[] {
  if (!type.isComponent) return [];
  const [category = '', name = ''] = type.uid.split('.');
  const out: Finding[] = [];
  if (!COMPONENT_PART.test(category)) {
    out.push(finding(type.file, '', `component category "${category}" must start with a letter and use only letters, digits, "-" or "_"`, 'rename the category folder under components/'));
  }
  if (!COMPONENT_PART.test(name)) {
    out.push(finding(type.file, '', `component name "${name}" must start with a letter and use only letters, digits, "-" or "_"`, 'rename the component file'));
  }
  return out;
}

interface Claim {
  readonly type: TypeView;
  readonly at: string;
  /** How the claim is named in messages, e.g. `singularName "tag"`. */
  readonly label: string;
  readonly raw: string;
}

/**
 * Singular and plural names share one namespace (routes and GraphQL query names), compared by
 * their camelCase form because that is the GraphQL field name: `item-2` and `item2` collide.
 */
function apiNameFindings(types: readonly TypeView[]): Finding[] {
  const owners = new Map<string, Claim>();
  const out: Finding[] = [];
  for (const type of types) {
    for (const [field, at, raw] of [
      ['singularName', SINGULAR, type.singularName],
      ['pluralName', PLURAL, type.pluralName],
    ] as const) {
      if (raw === undefined || raw === '') continue;
      const claim: Claim = { type, at, label: `${field} "${raw}"`, raw };
      const key = camelCase(raw);
      const owner = owners.get(key);
      if (owner === undefined) owners.set(key, claim);
      else if (!(owner.type === type && owner.raw === raw)) out.push(apiNameClash(claim, owner, key));
    }
  }
  return out;
}

function apiNameClash(claim: Claim, owner: Claim, key: string): Finding {
  const where = owner.type === claim.type ? 'this content type' : `${owner.type.uid} (${owner.type.file.path})`;
  const ownerField = owner.label.split(' ')[0];
  if (owner.raw === claim.raw) {
    return finding(claim.type.file, claim.at, `${claim.label} is already the ${ownerField} of ${where}`, 'singular and plural names must be unique across all content types; choose another name');
  }
  return finding(claim.type.file, claim.at, `${claim.label} and the ${owner.label} of ${where} both become the GraphQL name "${key}"`, 'rename one of them so that their GraphQL names differ');
}

/** Content types and components share the table namespace; SQLite compares table names case-insensitively. */
function tableFindings(types: readonly TypeView[]): Finding[] {
  const owners = new Map<string, TypeView>();
  const out: Finding[] = [];
  for (const type of types) {
    const explicit = type.collectionName;
    const table = tableOf(type);
    if (table === undefined) continue;
    const at = explicit === undefined ? '' : COLLECTION;
    const label = explicit === undefined ? `the default table "${table}" of this component` : `collectionName "${table}"`;
    const reserved = explicit === undefined ? undefined : reservedTable(table);
    const owner = owners.get(table.toLowerCase());
    if (reserved !== undefined) out.push(finding(type.file, at, `${label} is reserved: ${reserved}`, 'choose another collectionName'));
    else if (owner !== undefined)
      out.push(finding(type.file, at, `${label} is already the table of ${owner.uid} (${owner.file.path})`, 'give every content type and component its own "collectionName"'));
    else owners.set(table.toLowerCase(), type);
  }
  return out;
}

function reservedTable(table: string): string | undefined {
  const lower = table.toLowerCase();
  return RESERVED_TABLES.get(lower) ?? RESERVED_TABLE_PREFIXES.find(([prefix]) => lower.startsWith(prefix))?.[1];
}
