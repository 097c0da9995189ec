/**
 * The emitted SDL against the schema real Strapi 5.54 serves for the same model
 * (test/fixtures/conformance/golden/_schema.graphql; the conformance model is content-types/).
 * Both are built with graphql-js and compared structurally: every type's kind and description,
 * every field's type (with nullability), arguments (type, default, description) and order,
 * input fields, enum values, union members. The deliberate differences are listed below, each
 * with its reason (docs/graphql-schema.md says more); any other difference fails.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  astFromValue,
  buildSchema,
  type GraphQLArgument,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isScalarType,
  isUnionType,
  print,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { emitGraphqlSchema } from '../../generator/emit/graphql/sdl.ts';
import { conformanceGoldenDir } from '../support/fixtures.ts';
import { exampleContentTypes, loadModelFrom } from '../support/model.ts';

const REFERENCE = join(conformanceGoldenDir, '_schema.graphql');

/** Types of plugins capi does not serve (users & permissions, review workflows: admin features). */
const TYPES_NOT_SERVED: readonly string[] = [
  // users-permissions: permissions live in config/permissions.json, not in a content type.
  'UsersPermissionsPermission',
  'UsersPermissionsPermissionFiltersInput',
  'UsersPermissionsPermissionRelationResponseCollection',
  // review workflows: an admin-panel editorial feature; capi has no admin panel.
  'ReviewWorkflowsWorkflow',
  'ReviewWorkflowsWorkflowEntityResponseCollection',
  'ReviewWorkflowsWorkflowFiltersInput',
  'ReviewWorkflowsWorkflowInput',
  'ReviewWorkflowsWorkflowStage',
  'ReviewWorkflowsWorkflowStageEntityResponseCollection',
  'ReviewWorkflowsWorkflowStageFiltersInput',
  'ReviewWorkflowsWorkflowStageInput',
  'ReviewWorkflowsWorkflowStageRelationResponseCollection',
];

/** Fields capi leaves out, as `Type.field`. */
const FIELDS_NOT_SERVED: readonly string[] = [
  // The root fields of the plugins above.
  'Query.reviewWorkflowsWorkflow',
  'Query.reviewWorkflowsWorkflows_connection',
  'Query.reviewWorkflowsWorkflows',
  'Query.reviewWorkflowsWorkflowStage',
  'Query.reviewWorkflowsWorkflowStages_connection',
  'Query.reviewWorkflowsWorkflowStages',
  'Mutation.createReviewWorkflowsWorkflow',
  'Mutation.updateReviewWorkflowsWorkflow',
  'Mutation.deleteReviewWorkflowsWorkflow',
  'Mutation.createReviewWorkflowsWorkflowStage',
  'Mutation.updateReviewWorkflowsWorkflowStage',
  'Mutation.deleteReviewWorkflowsWorkflowStage',
  // users-permissions' role keeps its permissions in config/permissions.json, not in a relation.
  'UsersPermissionsRole.permissions_connection',
  'UsersPermissionsRole.permissions',
  'UsersPermissionsRoleFiltersInput.permissions',
  'UsersPermissionsRoleInput.permissions',
  // A password never leaves the server (Product.secret is in the type but resolves to null), nor
  // can it be probed: a filter on the hash (startsWith, gt, ...) would leak it character by
  // character. Strapi's REST refuses this filter (Invalid key secret); its GraphQL offers it.
  'ProductFiltersInput.secret',
];

/**
 * Required attributes that are single values (not lists), nullable in capi's output types:
 * required is enforced on publish, so a draft (or a component inside one) may lack the value, and
 * an attribute made required later leaves older rows without it. Strapi 5 marks them non-null and
 * a read of such a draft fails; capi answers null (as Strapi 4 did, strapi/strapi#14168).
 */
const REQUIRED_BUT_NULLABLE: readonly string[] = [
  'Article.title',
  'Author.name',
  'Category.name',
  'Global.siteName',
  'Global.siteDescription',
  'InternalNote.title',
  'Page.title',
  'Product.name',
  'Product.slug',
  'Tag.name',
  'ComponentProductVariant.sku',
  'ComponentSharedMetaSocial.socialNetwork',
  'ComponentSharedSeo.metaTitle',
  'ComponentSharedSeo.metaDescription',
];

/** What a type looks like for comparison purposes. */
interface TypeShape {
  readonly kind: string;
  readonly description: string | undefined;
  /** Fields, input fields or enum values in schema order; union members sorted. */
  readonly members: readonly string[];
}

function describeArgument(arg: GraphQLArgument): string {
  const description = arg.description == null ? '' : ` "${arg.description}"`;
  return `${arg.name}: ${String(arg.type)}${defaultOf(arg.defaultValue, arg.type)}${description}`;
}

function defaultOf(value: unknown, type: GraphQLInputType): string {
  if (value === undefined) return '';
  const ast = astFromValue(value, type);
  if (ast == null) throw new Error(`default value ${JSON.stringify(value)} cannot be printed as ${String(type)}`);
  return ` = ${print(ast)}`;
}

function describeType(type: GraphQLNamedType): TypeShape {
  const description = type.description ?? undefined;
  if (isObjectType(type) || isInterfaceType(type)) {
    const members = Object.values(type.getFields()).map((f) => {
      const args = f.args.length === 0 ? '' : `(${f.args.map(describeArgument).join(', ')})`;
      const doc = f.description == null ? '' : ` "${f.description}"`;
      return `${f.name}${args}: ${String(f.type)}${doc}`;
    });
    return { kind: isObjectType(type) ? 'object' : 'interface', description, members };
  }
  if (isInputObjectType(type)) {
    const members = Object.values(type.getFields()).map((f) => `${f.name}: ${String(f.type)}${defaultOf(f.defaultValue, f.type)}`);
    return { kind: 'input', description, members };
  }
  if (isEnumType(type)) return { kind: 'enum', description, members: type.getValues().map((v) => v.name) };
  // Member order of a union means nothing to clients (and the reference's was sorted when recorded).
  if (isUnionType(type))
    return {
      kind: 'union',
      description,
      members: type
        .getTypes()
        .map((t) => t.name)
        .sort(),
    };
  if (isScalarType(type)) return { kind: 'scalar', description, members: [] };
  throw new Error(`unexpected type ${String(type)}`);
}

function describeSchema(schema: GraphQLSchema): Map<string, TypeShape> {
  return new Map(
    Object.values(schema.getTypeMap())
      .filter((t) => !t.name.startsWith('__'))
      .map((t) => [t.name, describeType(t)]),
  );
}

/**
 * The reference with the deliberate differences applied. Each listed difference must exist in
 * the reference, so the lists above cannot go stale silently.
 */
function expectedShapes(reference: Map<string, TypeShape>): Map<string, TypeShape> {
  const expected = new Map(reference);
  for (const name of TYPES_NOT_SERVED) {
    if (!expected.delete(name)) throw new Error(`${name} is listed as not served but Strapi does not serve it either`);
  }
  for (const path of FIELDS_NOT_SERVED) {
    const [typeName = '', field = ''] = path.split('.');
    const shape = expected.get(typeName);
    const kept = shape?.members.filter((m) => !m.startsWith(`${field}:`) && !m.startsWith(`${field}(`));
    if (shape === undefined || kept === undefined || kept.length !== shape.members.length - 1) {
      throw new Error(`${path} is listed as not served but is not a field of Strapi's schema`);
    }
    expected.set(typeName, { ...shape, members: kept });
  }
  for (const path of REQUIRED_BUT_NULLABLE) {
    const [typeName = '', field = ''] = path.split('.');
    const shape = expected.get(typeName);
    const index = shape?.members.findIndex((m) => m.startsWith(`${field}: `) && m.endsWith('!')) ?? -1;
    if (shape === undefined || index === -1) throw new Error(`${path} is listed as nullable but is not a non-null field of Strapi's schema`);
    expected.set(typeName, { ...shape, members: shape.members.map((m, i) => (i === index ? m.slice(0, -1) : m)) });
  }
  // Consequence of the types not served: GenericMorph (what UploadFile.related returns) lists the rest.
  const morph = expected.get('GenericMorph');
  if (morph !== undefined) expected.set('GenericMorph', { ...morph, members: morph.members.filter((m) => !TYPES_NOT_SERVED.includes(m)) });
  return expected;
}

describe("the emitted SDL against Strapi 5.54's schema for the conformance model", () => {
  const reference = describeSchema(buildSchema(readFileSync(REFERENCE, 'utf8')));
  const sdl = emitGraphqlSchema(loadModelFrom(exampleContentTypes), { source: '../content-types/' });
  const actual = describeSchema(buildSchema(sdl));
  const expected = expectedShapes(reference);

  it('serves exactly the types Strapi serves, minus the plugins capi does not serve', () => {
    expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
  });

  it('gives every type the same kind, description, fields, arguments, defaults, values and members', () => {
    for (const [name, shape] of expected) expect(actual.get(name), name).toEqual(shape);
  });

  it('leaves out only what is listed, and everything listed is really left out', () => {
    for (const name of TYPES_NOT_SERVED) expect(actual.has(name), name).toBe(false);
    for (const path of FIELDS_NOT_SERVED) {
      const [typeName = '', field = ''] = path.split('.');
      expect(
        actual.get(typeName)?.members.some((m) => m.startsWith(`${field}:`) || m.startsWith(`${field}(`)),
        path,
      ).toBe(false);
    }
  });
});
