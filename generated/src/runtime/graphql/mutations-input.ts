/**
 * A mutation's `data` (`ArticleInput`) → the body the write engine validates, the `data` of a
 * REST write. The input types already give relations as documentIds, media as file ids and
 * components as objects, and graphql-js has mapped enum names to stored values; what is left:
 *
 * - dynamic-zone entries are JSON objects naming their component by GraphQL type
 *   (`{ __typename: "ComponentSharedQuote", title: "..." }`): the name becomes the component UID
 *   under `__component`, as REST spells it, and enum names inside the entry become stored values
 *   (the scalar's JSON is not typed by the schema). An unknown or foreign type or a missing
 *   `__typename` is refused; a `__component` beside `__typename` is taken, as Strapi takes it;
 * - `locale` in the input of a type that is not localized is declared by Strapi's schema and
 *   ignored, so it is dropped here (the write engine would refuse it as an unknown key).
 */
import { ValidationError } from '../errors.ts';
import type { ComponentSchema, ContentTypeSchema, DynamicZoneField, Field } from '../schema.ts';
import { isInputObject } from './args.ts';
import type { BindingIndex } from './schema-index.ts';

export function writeBody(bindings: BindingIndex, schema: ContentTypeSchema, data: unknown): unknown {
  if (!isInputObject(data)) return data;
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (key === 'locale' && !schema.localized) continue;
    const field = Object.hasOwn(schema.attributes, key) ? schema.attributes[key] : undefined;
    body[key] = field?.kind === 'dynamiczone' ? zoneEntries(bindings, key, field, value) : value;
  }
  return body;
}

function zoneEntries(bindings: BindingIndex, attribute: string, zone: DynamicZoneField, value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((entry) => zoneEntry(bindings, attribute, zone, entry));
}

function zoneEntry(bindings: BindingIndex, attribute: string, zone: DynamicZoneField, entry: unknown): unknown {
  if (!isInputObject(entry)) return entry;
  const { __typename: typeName, ...rest } = entry;
  const uid = typeof typeName === 'string' ? bindings.componentOfType(typeName) : undefined;
  if (uid === undefined || !zone.components.includes(uid)) {
    const expected = zone.components.map((member) => bindings.componentTypeName(member) ?? member).join(', ');
    throw new ValidationError(`Component not found. expected one of: ${expected}`, { key: '__typename', path: attribute, source: 'body' });
  }
  // A `__component` given beside `__typename` (clients that echo what they read) wins, as in
  // Strapi's plugin; the write engine refuses it if it is no member of the zone.
  const given = rest['__component'];
  const component = typeof given === 'string' && bindings.componentTypeName(given) !== undefined ? given : uid;
  return { __component: uid, ...storedEnums(bindings, bindings.component(component).schema, rest) };
}

/** Enum names → stored values in a component's JSON, nested components included. */
function storedEnums(bindings: BindingIndex, schema: ComponentSchema, data: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const enums = bindings.enumsOf(schema.uid);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    const field: Field | undefined = Object.hasOwn(schema.attributes, key) ? schema.attributes[key] : undefined;
    const enumeration = Object.hasOwn(enums, key) ? enums[key] : undefined;
    if (enumeration !== undefined && typeof value === 'string' && Object.hasOwn(enumeration.values, value)) {
      out[key] = enumeration.values[value];
    } else if (field?.kind === 'component') {
      const component = bindings.component(field.component).schema;
      out[key] = Array.isArray(value)
        ? value.map((item) => (isInputObject(item) ? storedEnums(bindings, component, item) : item))
        : isInputObject(value)
          ? storedEnums(bindings, component, value)
          : value;
    } else {
      out[key] = value;
    }
  }
  return out;
}
