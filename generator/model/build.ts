/**
 * model: turns validated schema files into the IR. It assumes the validate stage passed (every
 * reference resolves, every name is legal), so it never reports errors; it only derives.
 */
import { compare, type SchemaFile } from '../load.ts';
import { pointer } from '../diagnostics.ts';
import { identifierAllocator } from './identifiers.ts';
import { camelCase, componentTable, componentTypeName, linkTableName, pascalCase, pluginPrefix, snakeCase, SYSTEM_INDEX_COLUMNS } from './names.ts';
import type { Attribute, Component, ContentType, JsonValue, LinkTable, MediaKind, Model, RelationKind, ScalarType } from './types.ts';
import type { GeneratedValue } from '../../templates/contract/generated-values.ts';

/** The raw shape of one attribute after validation; only the keys the builder reads. */
interface RawAttribute {
  type: string;
  required?: boolean;
  private?: boolean;
  configurable?: boolean;
  unique?: boolean;
  default?: JsonValue;
  generated?: GeneratedValue;
  min?: number | string;
  max?: number | string;
  minLength?: number;
  maxLength?: number;
  regex?: string;
  enum?: string[];
  enumName?: string;
  targetField?: string;
  multiple?: boolean;
  allowedTypes?: MediaKind[] | null;
  relation?: RelationKind;
  target?: string;
  inversedBy?: string;
  mappedBy?: string;
  component?: string;
  repeatable?: boolean;
  components?: string[];
  pluginOptions?: { i18n?: { localized?: boolean } };
}

interface RawSchema {
  kind?: 'collectionType' | 'singleType';
  collectionName?: string;
  info: { singularName?: string; pluralName?: string; displayName?: string; description?: string };
  options?: { draftAndPublish?: boolean };
  pluginOptions?: { i18n?: { localized?: boolean } };
  indexes?: { name?: string; columns: string[] }[];
  attributes: Record<string, RawAttribute>;
}

const MANY: ReadonlySet<RelationKind> = new Set(['oneToMany', 'manyToMany', 'manyWay']);

export function buildModel(files: readonly SchemaFile[]): Model {
  const tables = new Map<string, string>(); // uid -> table, needed to name link tables of either side
  const typeFiles = files.filter((f) => f.kind === 'content-type');
  const componentFiles = files.filter((f) => f.kind === 'component');
  for (const f of typeFiles) tables.set(f.uid, contentTypeTable(raw(f)));
  for (const f of componentFiles) tables.set(f.uid, raw(f).collectionName ?? componentTable(f.uid));

  const identifiers = typeScriptIdentifiers(typeFiles, componentFiles);
  const contentTypes = typeFiles.map((f) => buildContentType(f, tables, identifiers)).sort(byUid);
  const components = componentFiles.map((f) => buildComponent(f, tables, identifiers)).sort(byUid);
  const linkTables = [...contentTypes, ...components]
    .flatMap((owner) => owner.attributes.flatMap((a) => (a.kind === 'relation' && a.owner ? [linkTableOf(owner, a)] : [])))
    .sort((a, b) => compare(a.table, b.table));
  return deepFreeze({ contentTypes, components, linkTables });
}

/** The TypeScript identifiers each type wants, by uid, in the order they are handed out. */
interface WantedIdentifiers {
  readonly tsType: string;
  readonly schemaConst: string;
  readonly routesConst: string;
  readonly graphqlConst: string;
}

/**
 * Every type's TypeScript identifiers, unique across the generated project (identifiers.ts).
 * Handed out in uid order, content types first, so that output is deterministic.
 */
function typeScriptIdentifiers(typeFiles: readonly SchemaFile[], componentFiles: readonly SchemaFile[]): ReadonlyMap<string, WantedIdentifiers> {
  const wanted = new Map<string, WantedIdentifiers>();
  for (const f of [...typeFiles].sort(byUid)) {
    const singular = `${pluginPrefix(f.uid)}${pascalCase(raw(f).info.singularName as string)}`;
    const camel = camelCase(singular);
    wanted.set(f.uid, { tsType: singular, schemaConst: `${camel}Schema`, routesConst: `${camel}Routes`, graphqlConst: `${camel}Graphql` });
  }
  for (const f of [...componentFiles].sort(byUid)) {
    const typeName = componentTypeName(f.uid);
    wanted.set(f.uid, { tsType: typeName, schemaConst: `${camelCase(typeName)}Schema`, routesConst: '', graphqlConst: '' });
  }
  const allocate = identifierAllocator([...wanted.values()].flatMap((w) => Object.values(w)));
  const out = new Map<string, WantedIdentifiers>();
  for (const [uid, w] of wanted) {
    out.set(uid, {
      tsType: allocate(w.tsType),
      schemaConst: allocate(w.schemaConst),
      routesConst: w.routesConst === '' ? '' : allocate(w.routesConst),
      graphqlConst: w.graphqlConst === '' ? '' : allocate(w.graphqlConst),
    });
  }
  return out;
}

function buildContentType(file: SchemaFile, tables: ReadonlyMap<string, string>, identifiers: ReadonlyMap<string, WantedIdentifiers>): ContentType {
  const schema = raw(file);
  const singularName = schema.info.singularName as string;
  const localized = schema.pluginOptions?.i18n?.localized === true;
  const typeName = `${pluginPrefix(file.uid)}${pascalCase(singularName)}`;
  return {
    uid: file.uid,
    kind: schema.kind ?? 'collectionType',
    singularName,
    pluralName: schema.info.pluralName as string,
    displayName: schema.info.displayName ?? typeName,
    description: schema.info.description ?? '',
    draftAndPublish: schema.options?.draftAndPublish === true,
    localized,
    attributes: buildAttributes(file, schema, localized, tables),
    indexes: (schema.indexes ?? []).map((index) => ({
      ...(index.name === undefined ? {} : { name: index.name }),
      attributes: index.columns.map((name) => indexedAttribute(schema, name)),
    })),
    names: { table: tables.get(file.uid) as string, prismaModel: typeName, graphqlType: typeName, ...(identifiers.get(file.uid) as WantedIdentifiers) },
    file: file.path,
  };
}

/** The attribute an index entry names, by attribute name or column name (validated before). */
function indexedAttribute(schema: RawSchema, name: string): string {
  const system = SYSTEM_INDEX_COLUMNS.get(name);
  if (system !== undefined) return system;
  if (schema.attributes[name] !== undefined) return name;
  return Object.keys(schema.attributes).find((attribute) => snakeCase(attribute) === name) ?? name;
}

function buildComponent(file: SchemaFile, tables: ReadonlyMap<string, string>, identifiers: ReadonlyMap<string, WantedIdentifiers>): Component {
  const schema = raw(file);
  const [category = '', name = ''] = file.uid.split('.');
  const typeName = componentTypeName(file.uid);
  return {
    uid: file.uid,
    category,
    name,
    displayName: schema.info.displayName ?? name,
    attributes: buildAttributes(file, schema, false, tables),
    names: {
      table: tables.get(file.uid) as string,
      prismaModel: typeName,
      graphqlType: typeName,
      tsType: identifiers.get(file.uid)?.tsType as string,
      schemaConst: identifiers.get(file.uid)?.schemaConst as string,
    },
    file: file.path,
  };
}

function buildAttributes(file: SchemaFile, schema: RawSchema, typeLocalized: boolean, tables: ReadonlyMap<string, string>): Attribute[] {
  return Object.entries(schema.attributes).map(([name, attr]) => {
    const base = {
      name,
      required: attr.required === true,
      private: attr.private === true,
      configurable: attr.configurable !== false,
      localized: typeLocalized && isLocalized(attr),
      pointer: pointer('attributes', name),
    };
    switch (attr.type) {
      case 'media':
        return { ...base, kind: 'media', multiple: attr.multiple === true, allowedTypes: attr.allowedTypes ?? [] };
      case 'relation':
        return relationAttribute(base, file.uid, attr, tables);
      case 'component':
        return { ...base, kind: 'component', component: attr.component as string, repeatable: attr.repeatable === true, ...bounds(attr) };
      case 'dynamiczone':
        return { ...base, kind: 'dynamiczone', components: attr.components ?? [], ...bounds(attr) };
      default:
        return {
          ...base,
          kind: 'scalar',
          type: attr.type as ScalarType,
          column: snakeCase(name),
          unique: attr.unique === true,
          ...definedOnly({
            default: attr.default,
            generated: attr.generated,
            ...bounds(attr),
            minLength: attr.minLength,
            maxLength: attr.maxLength,
            regex: attr.regex,
            enum: attr.enum,
            enumName: attr.enumName === '' ? undefined : attr.enumName,
            targetField: attr.targetField,
          }),
        };
    }
  });
}

/** Strapi's i18n rule: relations and uids follow the type; other attributes opt in explicitly. */
function isLocalized(attr: RawAttribute): boolean {
  if (attr.type === 'relation' || attr.type === 'uid') return true;
  return attr.pluginOptions?.i18n?.localized === true;
}

function relationAttribute(base: Omit<Attribute, 'kind'>, ownerUid: string, attr: RawAttribute, tables: ReadonlyMap<string, string>): Attribute {
  const relation = attr.relation as RelationKind;
  const target = attr.target as string;
  const owner = attr.mappedBy === undefined;
  const inverse = attr.inversedBy ?? attr.mappedBy;
  // The mappedBy side reads the link table of the inverse attribute on the target.
  const linkTable = owner ? linkTableName(tables.get(ownerUid) as string, base.name) : linkTableName(tables.get(target) as string, inverse as string);
  return {
    ...base,
    kind: 'relation',
    relation,
    target,
    cardinality: MANY.has(relation) ? 'many' : 'one',
    owner,
    ...(inverse === undefined ? {} : { inverse }),
    linkTable,
  };
}

function linkTableOf(owner: ContentType | Component, attr: Extract<Attribute, { kind: 'relation' }>): LinkTable {
  return {
    table: attr.linkTable,
    prismaModel: `${owner.names.prismaModel}${pascalCase(attr.name)}Link`,
    ownerUid: owner.uid,
    ownerPrismaModel: owner.names.prismaModel,
    attribute: attr.name,
    targetUid: attr.target,
    cardinality: attr.cardinality,
  };
}

/** Validation requires `collectionName` on content types, as Strapi writes it. */
function contentTypeTable(schema: RawSchema): string {
  return schema.collectionName as string;
}

/**
 * Strapi writes biginteger bounds as digit strings; bounds are compared as numbers, which is
 * exact up to 2^53 and only approximate for bounds beyond it.
 */
function bounds(attr: RawAttribute): { min?: number; max?: number } {
  return definedOnly({ min: toNumber(attr.min), max: toNumber(attr.max) });
}

function toNumber(value: number | string | undefined): number | undefined {
  return value === undefined ? undefined : Number(value);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function raw(file: SchemaFile): RawSchema {
  return file.json as RawSchema;
}

function byUid(a: { uid: string }, b: { uid: string }): number {
  return compare(a.uid, b.uid);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
