/**
 * No valid model ever produces a project that fails to compile. fast-check builds random models
 * (names that clash with generated and runtime identifiers, both kinds, draft & publish and i18n,
 * every attribute type, relations of every kind between them, nested components, dynamic zones,
 * custom fields, enumeration values that are no GraphQL names) and each is generated and
 * type-checked. A model the validator refuses must be refused for one of the reasons Strapi
 * refuses it too (listed below), and most models must be valid, or the test would prove nothing.
 *
 * Fixed seed and a small number of runs: each run generates and compiles a whole project.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { SchemaError } from '../../generator/diagnostics.ts';
import { generate } from '../../generator/generate.ts';
import { consoleReporter } from '../../generator/steps.ts';
import { scratch } from '../support/cli.ts';

/** Names that are, or derive, identifiers of the generated project and its runtime. */
const TRICKY_TYPE_NAMES = [
  'component',
  'single-type',
  'collection-type',
  'model',
  'schema',
  'entity',
  'routes',
  'runtime',
  'content-api',
  'content-type-schema',
  'component-schema',
  'model-schema',
  'document-fields',
  'json-value',
  'graphql-bindings',
  'run-server',
  'config',
  'server',
  'main',
  'prisma-model',
  'object',
  'promise',
  'default',
  'class',
  'export',
  'import',
  'constructor',
  'prototype',
  'api',
  'component-shared-x',
];
const TRICKY_ATTRIBUTE_NAMES = [
  'model',
  'schema',
  'data',
  'type',
  'default',
  'class',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'length',
  'name',
  'attributes',
  'kind',
  'uid',
  'table',
  'entry',
  'document',
  'populate',
  'filters',
  'sort',
  'fields',
  'pagination',
  'status',
];
const TRICKY_CATEGORIES = ['shared', 'component', 'model', 'schema', 'api', 'x-y', 'content_type'];

/** What the validator may refuse in a random model: what Strapi refuses too. */
const STRAPI_REFUSES = [
  /is reserved/, // reserved type and attribute names (Strapi's reservedAttributes / reservedModels)
  /becomes the GraphQL type .* which is already/, // two types with one GraphQL name: Strapi's schema would not build
  /gets the .* which capi already uses/,
  /which is already the .* of/,
  /API names|is already the (singular|plural)Name|share|same GraphQL name/, // two types with one API name
  /has the same column/, // Strapi: "Attributes must have unique names" (snake_case)
  /table .* is already/, // two types in one table
];

const RUNS = 12;

const kebab = fc.stringMatching(/^[a-z][a-z0-9]{0,6}(-[a-z][a-z0-9]{0,3})?$/);
const camel = fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,8}$/);
const typeName = fc.oneof(fc.constantFrom(...TRICKY_TYPE_NAMES), kebab);
const attributeName = fc.oneof(fc.constantFrom(...TRICKY_ATTRIBUTE_NAMES), camel);

type Json = Record<string, unknown>;

/** An attribute of a scalar type, with options of that type. */
const scalarAttribute: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(
    { type: 'string', maxLength: 40 },
    { type: 'text' },
    { type: 'richtext' },
    { type: 'blocks' },
    { type: 'email' },
    { type: 'password' },
    { type: 'integer', min: 0 },
    { type: 'biginteger' },
    { type: 'decimal' },
    { type: 'float' },
    { type: 'boolean', default: true },
    { type: 'date' },
    { type: 'datetime' },
    { type: 'time' },
    { type: 'timestamp' },
    { type: 'json' },
    { type: 'uid' },
    { type: 'customField', customField: 'plugin::color-picker.color', options: { format: 'hex' } },
    { type: 'customField', customField: 'plugin::multi-select.multi-select', options: ['a', 'b'] },
    { type: 'customField', customField: 'plugin::ckeditor5.CKEditor', options: { preset: 'defaultHtml' } },
    { type: 'customField', customField: 'plugin::unknown.field' },
  ),
  fc
    .tuple(
      fc.uniqueArray(fc.oneof(fc.constantFrom('datetime-local', '3d', 'a b', 'true', 'x_large', 'Ünïcode'), kebab), { minLength: 1, maxLength: 4 }),
      fc.option(fc.constantFrom('', 'Kind', 'article_kind', 'ModelSchema', 'DocumentFields'), { nil: undefined }),
    )
    .map(([values, enumName]): Json => ({ type: 'enumeration', enum: values, enumName })),
);

interface Sketch {
  readonly types: { name: string; kind: 'collectionType' | 'singleType'; draftAndPublish: boolean; localized: boolean; attributes: [string, number, number][] }[];
  readonly components: { category: string; name: string; attributes: [string, number, number][] }[];
}

/**
 * A model sketch: names, kinds and, per attribute, a name and two numbers that pick its kind and
 * its target; `files` turns it into schema files that refer only to types that exist.
 */
const sketch: fc.Arbitrary<Sketch> = fc.record({
  types: fc.uniqueArray(
    fc.record({
      name: typeName,
      kind: fc.constantFrom<'collectionType' | 'singleType'>('collectionType', 'collectionType', 'singleType'),
      draftAndPublish: fc.boolean(),
      localized: fc.boolean(),
      attributes: fc.uniqueArray(fc.tuple(attributeName, fc.nat(40), fc.nat(20)), { maxLength: 7, selector: ([name]) => name.toLowerCase() }),
    }),
    { minLength: 1, maxLength: 5, selector: (t) => t.name },
  ),
  components: fc.uniqueArray(
    fc.record({
      category: fc.constantFrom(...TRICKY_CATEGORIES),
      name: typeName,
      attributes: fc.uniqueArray(fc.tuple(attributeName, fc.nat(40), fc.nat(20)), { maxLength: 4, selector: ([name]) => name.toLowerCase() }),
    }),
    { maxLength: 4, selector: (c) => `${c.category}.${c.name}` },
  ),
});

const RELATIONS = ['oneWay', 'manyWay', 'oneToOne', 'oneToMany', 'manyToOne', 'manyToMany'] as const;

function files(model: Sketch, scalars: readonly Json[]): Record<string, Json> {
  const typeUids = model.types.map((t) => `api::${t.name}.${t.name}`);
  const componentUids = model.components.map((c) => `${c.category}.${c.name}`);
  /** Picks an attribute: mostly scalars, then media, relations, components and zones. */
  const attribute = (pick: number, target: number, inComponent: boolean, componentIndex: number): Json => {
    const earlierComponents = inComponent ? componentUids.slice(0, componentIndex) : componentUids;
    if (pick < 24) return scalars[(pick + target) % scalars.length] as Json;
    if (pick < 28) return { type: 'media', multiple: target % 2 === 0, allowedTypes: target % 3 === 0 ? ['images'] : undefined };
    if (pick < 34) {
      const relation = inComponent ? (target % 2 === 0 ? 'oneWay' : 'manyWay') : RELATIONS[target % RELATIONS.length];
      return { type: 'relation', relation, target: typeUids[target % typeUids.length] };
    }
    if (earlierComponents.length === 0) return { type: 'string' };
    if (pick < 38 || inComponent) return { type: 'component', component: earlierComponents[target % earlierComponents.length], repeatable: target % 2 === 0 };
    return { type: 'dynamiczone', components: [...new Set([earlierComponents[target % earlierComponents.length], earlierComponents[0]])] };
  };
  const out: Record<string, Json> = {};
  model.types.forEach((t) => {
    const attributes = Object.fromEntries(t.attributes.map(([name, pick, target]) => [name, attribute(pick, target, false, 0)]));
    out[`${t.name}.json`] = {
      kind: t.kind,
      collectionName: `${t.name.replace(/-/g, '_')}_rows`,
      info: { singularName: t.name, pluralName: `${t.name}-items`, displayName: t.name },
      options: { draftAndPublish: t.draftAndPublish },
      pluginOptions: t.localized ? { i18n: { localized: true } } : {},
      attributes,
    };
  });
  model.components.forEach((c, index) => {
    // Strapi's component uids keep the folder and file names; the table is derived from both.
    const attributes = Object.fromEntries(c.attributes.map(([name, pick, target]) => [name, attribute(pick, target, true, index)]));
    out[`components/${c.category}/${c.name}.json`] = { info: { displayName: c.name }, attributes };
  });
  return JSON.parse(JSON.stringify(out)) as Record<string, Json>;
}

describe('random valid models', () => {
  const space = scratch('random-models');
  afterAll(() => space.dispose());
  const quiet = consoleReporter(process.stderr, true);
  const outcomes = { compiled: 0, refused: [] as string[] };

  it('each generate a project that type-checks, or are refused for a reason Strapi refuses them too', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(sketch, fc.array(scalarAttribute, { minLength: 24, maxLength: 24 }), async (model, scalars) => {
        run += 1;
        const dir = join(space.dir, `run-${run}`);
        for (const [path, json] of Object.entries(files(model, scalars))) {
          mkdirSync(dirname(join(dir, 'content-types', path)), { recursive: true });
          writeFileSync(join(dir, 'content-types', path), JSON.stringify(json, null, 2));
        }
        try {
          await generate({ contentTypes: join(dir, 'content-types'), out: join(dir, 'out'), check: false, acceptDataLoss: false, skipBuild: false }, quiet);
          outcomes.compiled += 1;
        } catch (error) {
          if (!(error instanceof SchemaError)) throw error;
          const unexplained = error.diagnostics.filter((d) => !STRAPI_REFUSES.some((reason) => reason.test(d.message)));
          expect(unexplained.map((d) => `${d.file} #${d.pointer}: ${d.message}`)).toEqual([]);
          outcomes.refused.push(error.diagnostics[0]?.message ?? '');
        }
      }),
      { seed: 20261123, numRuns: RUNS, endOnFailure: true },
    );
    // Most random models are valid: the property is about them.
    expect(outcomes.compiled).toBeGreaterThan(RUNS / 2);
  }, 600_000);
});
