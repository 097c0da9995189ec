/**
 * A typed, forgiving reading of the raw files for the semantic checks. The semantic pass runs
 * even on files the structural pass rejected (so that one run reports everything), so every
 * accessor returns `undefined` for a value of the wrong shape instead of trusting it: a wrong
 * shape has already been reported, and must not be reported twice.
 */
import { pointer } from '../diagnostics.ts';
import type { SchemaFile } from '../load.ts';
import { componentTable } from '../model/names.ts';
import { ATTRIBUTE_TYPES, COMPONENT_ATTRIBUTE_TYPES, RELATION_KINDS, type AttributeTypeName } from './catalog.ts';

export type RelationKindName = (typeof RELATION_KINDS)[number];

export interface AttributeView {
  readonly name: string;
  /** `/attributes/<name>`. */
  readonly pointer: string;
  /** Undefined when the type is missing, unknown or not allowed in this kind of file. */
  readonly type: AttributeTypeName | undefined;
  readonly options: Readonly<Record<string, unknown>>;
}

export interface TypeView {
  readonly file: SchemaFile;
  readonly uid: string;
  readonly isComponent: boolean;
  readonly kind: 'collectionType' | 'singleType' | undefined;
  readonly singularName: string | undefined;
  readonly pluralName: string | undefined;
  readonly collectionName: string | undefined;
  /** False when `attributes` is not an object: checks that look into this type have nothing to go on. */
  readonly readable: boolean;
  /** `options.draftAndPublish === true` on the type (never for components). */
  readonly draftAndPublish: boolean;
  /** `pluginOptions.i18n.localized === true` on the type (never for components). */
  readonly localized: boolean;
  readonly attributes: readonly AttributeView[];
}

export interface ModelView {
  /** In file path order. */
  readonly types: readonly TypeView[];
  readonly byUid: ReadonlyMap<string, TypeView>;
  /**
   * False when a schema file did not load (invalid JSON, unreadable): a uid missing from `byUid`
   * may be the one that file defines, so "does not exist" would be a false second error.
   */
  readonly complete: boolean;
}

export function buildView(files: readonly SchemaFile[], complete = true): ModelView {
  const types = files.map(typeView);
  return { types, byUid: new Map(types.map((t) => [t.uid, t])), complete };
}

function typeView(file: SchemaFile): TypeView {
  const root = record(file.json) ?? {};
  const info = record(root['info']) ?? {};
  const isComponent = file.kind === 'component';
  const kind = root['kind'] === 'collectionType' || root['kind'] === 'singleType' ? root['kind'] : undefined;
  return {
    file,
    uid: file.uid,
    isComponent,
    kind: isComponent ? undefined : kind,
    singularName: isComponent ? undefined : text(info['singularName']),
    pluralName: isComponent ? undefined : text(info['pluralName']),
    collectionName: text(root['collectionName']),
    readable: record(root['attributes']) !== undefined,
    draftAndPublish: !isComponent && record(root['options'])?.['draftAndPublish'] === true,
    localized: !isComponent && isLocalized(root),
    attributes: attributeViews(record(root['attributes']) ?? {}, isComponent),
  };
}

function attributeViews(attributes: Readonly<Record<string, unknown>>, isComponent: boolean): AttributeView[] {
  const allowed: readonly string[] = isComponent ? COMPONENT_ATTRIBUTE_TYPES : ATTRIBUTE_TYPES;
  return Object.entries(attributes).map(([name, value]) => {
    const options = record(value) ?? {};
    const type = options['type'];
    return {
      name,
      pointer: pointer('attributes', name),
      type: typeof type === 'string' && allowed.includes(type) ? (type as AttributeTypeName) : undefined,
      options,
    };
  });
}

/** `pluginOptions.i18n.localized === true` of a type or an attribute's options. */
export function isLocalized(options: Readonly<Record<string, unknown>>): boolean {
  return record(record(options['pluginOptions'])?.['i18n'])?.['localized'] === true;
}

export function record(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function numeric(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
}

export function option(attribute: AttributeView, key: string): unknown {
  return attribute.options[key];
}

/** The relation kind, when it is one capi serves. */
export function relationKind(attribute: AttributeView): RelationKindName | undefined {
  const kind = attribute.options['relation'];
  return attribute.type === 'relation' && (RELATION_KINDS as readonly unknown[]).includes(kind) ? (kind as RelationKindName) : undefined;
}

/** The table a type is stored in: its collectionName, or a component's default table. */
export function tableOf(type: TypeView): string | undefined {
  const table = type.collectionName ?? (type.isComponent ? componentTable(type.uid) : undefined);
  return table === '' ? undefined : table;
}
