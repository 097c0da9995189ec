/**
 * Compares the schemas an archive carries (`schemas/*.jsonl`, Strapi's own description of each
 * content type and component) with the project's model, so that an import never drops data the
 * project has no place for, and a type that changed between the two is found before anything is
 * written. Every difference is listed, in both directions.
 */
import type { Field, ModelSchema } from '../schema.ts';
import { isProjectType, isSkippedAttribute, own } from './targets.ts';

/** What an archive's schema line says about one type (the parts compared). */
export interface ArchiveSchema {
  readonly uid: string;
  readonly modelType: 'contentType' | 'component';
  readonly draftAndPublish: boolean;
  readonly localized: boolean;
  readonly attributes: Readonly<Record<string, ArchiveAttribute>>;
}

export interface ArchiveAttribute {
  readonly type: string;
  readonly target?: string;
  readonly component?: string;
  readonly components?: readonly string[];
  readonly repeatable?: boolean;
  readonly multiple?: boolean;
}

/** Reads one schema line; undefined when it is not a schema. */
export function parseArchiveSchema(value: unknown): ArchiveSchema | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const line = value as Record<string, unknown>;
  if (typeof line['uid'] !== 'string' || !isRecord(line['attributes'])) return undefined;
  const attributes = line['attributes'];
  if (
    !Object.values(attributes).every((attribute) => isRecord(attribute) && typeof attribute['type'] === 'string' && (attribute['components'] === undefined || Array.isArray(attribute['components'])))
  )
    return undefined;
  const options = (line['options'] ?? {}) as Record<string, unknown>;
  const pluginOptions = (line['pluginOptions'] ?? {}) as Record<string, { localized?: unknown } | undefined>;
  return {
    uid: line['uid'],
    modelType: line['modelType'] === 'component' ? 'component' : 'contentType',
    draftAndPublish: options['draftAndPublish'] === true,
    localized: pluginOptions['i18n']?.localized === true,
    attributes: attributes as Record<string, ArchiveAttribute>,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every difference between the archive's types and the project's, one sentence each. */
export function diffSchemas(archive: readonly ArchiveSchema[], model: ModelSchema): string[] {
  const differences: string[] = [];
  const seen = new Set<string>();
  for (const schema of archive) {
    if (!isProjectType(schema.uid)) continue;
    seen.add(schema.uid);
    const contentType = schema.modelType === 'component' ? undefined : own(model.contentTypes, schema.uid);
    const project = schema.modelType === 'component' ? own(model.components, schema.uid) : contentType;
    if (project === undefined) {
      differences.push(`${schema.uid}: in the archive, not in the project`);
      continue;
    }
    if (contentType !== undefined) {
      if (contentType.draftAndPublish !== schema.draftAndPublish)
        differences.push(`${schema.uid}: draft & publish is ${onOff(schema.draftAndPublish)} in the archive, ${onOff(contentType.draftAndPublish)} in the project`);
      if (contentType.localized !== schema.localized) differences.push(`${schema.uid}: i18n is ${onOff(schema.localized)} in the archive, ${onOff(contentType.localized)} in the project`);
    }
    for (const [name, attribute] of Object.entries(schema.attributes)) {
      if (isSkippedAttribute(schema.uid, name) || (attribute.type === 'relation' && (attribute as { relation?: string }).relation?.startsWith('morph'))) continue;
      const field = own(project.attributes, name);
      if (field === undefined) {
        differences.push(`${schema.uid}.${name}: in the archive, not in the project`);
        continue;
      }
      const mismatch = compareAttribute(attribute, field);
      if (mismatch !== undefined) differences.push(`${schema.uid}.${name}: ${mismatch}`);
    }
    for (const name of Object.keys(project.attributes)) {
      if (!Object.hasOwn(schema.attributes, name)) differences.push(`${schema.uid}.${name}: in the project, not in the archive`);
    }
  }
  for (const uid of [...Object.keys(model.contentTypes), ...Object.keys(model.components)]) {
    if (!seen.has(uid)) differences.push(`${uid}: in the project, not in the archive`);
  }
  return differences;
}

/** `a string`, `an integer`. */
function a(word: string): string {
  return `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;
}

function onOff(value: boolean): string {
  return value ? 'on' : 'off';
}

/** Why an attribute of the archive cannot land in the project's field, or undefined when it can. */
function compareAttribute(attribute: ArchiveAttribute, field: Field): string | undefined {
  const archiveKind = attribute.type === 'customField' ? 'scalar' : ['relation', 'media', 'component', 'dynamiczone'].includes(attribute.type) ? attribute.type : 'scalar';
  if (archiveKind !== field.kind) return `${a(attribute.type)} in the archive, ${a(field.kind === 'scalar' ? field.type : field.kind)} in the project`;
  switch (field.kind) {
    case 'scalar':
      return attribute.type === 'customField' || attribute.type === field.type ? undefined : `${a(attribute.type)} in the archive, ${a(field.type)} in the project`;
    case 'relation':
      return attribute.target === field.target ? undefined : `targets ${attribute.target ?? '?'} in the archive, ${field.target} in the project`;
    case 'media':
      return Boolean(attribute.multiple) === field.multiple ? undefined : `multiple is ${Boolean(attribute.multiple)} in the archive, ${field.multiple} in the project`;
    case 'component':
      if (attribute.component !== field.component) return `component ${attribute.component ?? '?'} in the archive, ${field.component} in the project`;
      return Boolean(attribute.repeatable) === field.repeatable ? undefined : `repeatable is ${Boolean(attribute.repeatable)} in the archive, ${field.repeatable} in the project`;
    case 'dynamiczone': {
      const missing = (attribute.components ?? []).filter((uid) => !field.components.includes(uid));
      return missing.length === 0 ? undefined : `the archive allows ${missing.join(', ')}, the project does not`;
    }
  }
}
