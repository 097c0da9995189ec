/**
 * Derived GraphQL names across the whole model. Every collision case also runs the SDL emitter
 * on the same files: what the validator rejects is exactly what would make the emitter define a
 * type twice, and what it accepts, the emitter prints.
 */
import { describe, expect, it } from 'vitest';
import { graphqlTypeDefinitions } from '../../generator/emit/graphql/sdl.ts';
import { loadSchemas } from '../../generator/load.ts';
import { buildModel } from '../../generator/model/build.ts';
import { builtinGraphqlNames, graphqlNameClaims } from '../../generator/validate/rules-graphql.ts';
import { buildView } from '../../generator/validate/view.ts';
import { exampleContentTypes } from '../support/model.ts';
import { component, contentType, problems, single, writeModel, type Json } from './helpers.ts';

/** The emitter's verdict on the same files: its error, or undefined when it emits. */
function emitterError(files: Readonly<Record<string, Json>>): string | undefined {
  const loaded = loadSchemas(writeModel(files));
  try {
    graphqlTypeDefinitions(buildModel(loaded.files));
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** Every name the validator derives for a folder of schemas, built-in names included. */
function derivedNames(dir: string): Set<string> {
  const view = buildView(loadSchemas(dir).files);
  return new Set([...builtinGraphqlNames(), ...view.types.flatMap(graphqlNameClaims).map((c) => c.name)]);
}

const dynamicZone = { type: 'dynamiczone', components: ['shared.quote'] };
const quote = component('Quote', { text: { type: 'string' } });

describe('semantic: derived GraphQL names', () => {
  it('rejects a type named like the input type of another (article-input next to article)', () => {
    const files = { ...single('article', {}), ...single('article-input', {}) };
    expect(problems(files)).toEqual([
      'article-input.json #/info/singularName: singularName "article-input" becomes the GraphQL type "ArticleInput", which is already the input type of singularName "article" (article.json)\n    fix: choose another singularName',
    ]);
    expect(emitterError(files)).toBe('GraphQL emitter: type ArticleInput is defined twice');
  });

  it('rejects a component named like the input type of another component', () => {
    const files = { ...single('post', {}), 'components/shared/seo.json': component('Seo', {}), 'components/shared/seo-input.json': component('Seo input', {}) };
    expect(problems(files)).toEqual([
      'components/shared/seo-input.json #: component shared.seo-input becomes the GraphQL type "ComponentSharedSeoInput", which is already the input type of component shared.seo (components/shared/seo.json)\n    fix: rename the component file or its category folder',
    ]);
    expect(emitterError(files)).toBe('GraphQL emitter: type ComponentSharedSeoInput is defined twice');
  });

  it("rejects a companion that is another type's companion, on the type with the longer name", () => {
    const files = { ...single('article', {}), ...single('article-filters', {}) };
    expect(problems(files)).toEqual([
      'article-filters.json #/info/singularName: singularName "article-filters" gets the input type "ArticleFiltersInput", which is already the filters input of singularName "article" (article.json)\n    fix: choose another singularName',
    ]);
    expect(emitterError(files)).toBe('GraphQL emitter: type ArticleFiltersInput is defined twice');
  });

  it('rejects types named like response collections', () => {
    const files = { ...single('article', {}), ...single('article-entity-response-collection', {}), ...single('article-relation-response-collection', {}) };
    expect(problems(files)).toEqual([
      'article-entity-response-collection.json #/info/singularName: singularName "article-entity-response-collection" becomes the GraphQL type "ArticleEntityResponseCollection", which is already the response collection type of singularName "article" (article.json)\n    fix: choose another singularName',
      'article-relation-response-collection.json #/info/singularName: singularName "article-relation-response-collection" becomes the GraphQL type "ArticleRelationResponseCollection", which is already the relation response collection type of singularName "article" (article.json)\n    fix: choose another singularName',
    ]);
    expect(emitterError(files)).toMatch(/^GraphQL emitter: type Article(Entity|Relation)ResponseCollection is defined twice$/);
  });

  it('knows a single type has no entity response collection', () => {
    const files = { ...single('global', {}, { kind: 'singleType' }), ...single('global-entity-response-collection', {}) };
    expect(problems(files)).toEqual([]);
    expect(emitterError(files)).toBeUndefined();
  });

  it('rejects types named like a dynamic zone union or its input', () => {
    const files = {
      ...single('page', { blocks: dynamicZone }),
      ...single('page-blocks-dynamic-zone', {}),
      ...single('page-blocks-dynamic-zone-input', {}),
      'components/shared/quote.json': quote,
    };
    expect(problems(files)).toEqual([
      'page-blocks-dynamic-zone-input.json #/info/singularName: singularName "page-blocks-dynamic-zone-input" becomes the GraphQL type "PageBlocksDynamicZoneInput", which is already the dynamic zone input scalar of dynamic zone "blocks" of api::page.page (page.json)\n    fix: choose another singularName',
      'page-blocks-dynamic-zone.json #/info/singularName: singularName "page-blocks-dynamic-zone" becomes the GraphQL type "PageBlocksDynamicZone", which is already the dynamic zone union of dynamic zone "blocks" of api::page.page (page.json)\n    fix: choose another singularName',
    ]);
    expect(emitterError(files)).toMatch(/is defined twice$/);
  });

  it('rejects two dynamic zones of different types with one union', () => {
    const files = { ...single('a', { bC: dynamicZone }), ...single('a-b', { c: dynamicZone }), 'components/shared/quote.json': quote };
    expect(problems(files)).toEqual([
      'a-b.json #/attributes/c: dynamic zone "c" gets the dynamic zone union "ABCDynamicZone", which is already the dynamic zone union of dynamic zone "bC" of api::a.a (a.json)\n    fix: rename the attribute',
    ]);
    expect(emitterError(files)).toBe('GraphQL emitter: type ABCDynamicZone is defined twice');
  });

  it('rejects enumerations that get one ENUM_ name (type names differing in case only)', () => {
    const kind = { type: 'enumeration', enum: ['a', 'b'] };
    const files = { ...single('post', {}), 'components/shared/ab-c.json': component('AbC', { kind }), 'components/shared/abc.json': component('Abc', { kind }) };
    expect(problems(files)).toEqual([
      'components/shared/abc.json #/attributes/kind: enumeration "kind" gets the enum "ENUM_COMPONENTSHAREDABC_KIND", which is already the enum of enumeration "kind" of shared.ab-c (components/shared/ab-c.json)\n    fix: rename the attribute',
    ]);
    expect(emitterError(files)).toBe('GraphQL emitter: type ENUM_COMPONENTSHAREDABC_KIND is defined twice');
  });

  it('rejects two enumerations of one type whose names differ in case only', () => {
    const files = single('post', { fooBar: { type: 'enumeration', enum: ['a'] }, foobar: { type: 'enumeration', enum: ['b'] } });
    expect(problems(files)).toEqual([
      'post.json #/attributes/foobar: enumeration "foobar" gets the enum "ENUM_POST_FOOBAR", which is already the enum of enumeration "fooBar"\n    fix: rename the attribute',
    ]);
    expect(emitterError(files)).toBe('GraphQL emitter: type ENUM_POST_FOOBAR is defined twice');
  });

  it('leaves two attributes sharing a column to the column rule', () => {
    const files = single('post', { fooBar: { type: 'enumeration', enum: ['a'] }, foo_bar: { type: 'enumeration', enum: ['b'] } });
    expect(problems(files)).toEqual([
      'post.json #/attributes/foo_bar: attribute "foo_bar" has the same column "foo_bar" as "fooBar"\n    fix: rename one of them; columns are the snake_case of attribute names',
    ]);
  });

  it('rejects names the schema already defines, companions included', () => {
    const files = {
      ...single('file-info', {}),
      ...single('string-filter-input', {}),
      ...single('upload-file-input', {}),
      ...single('pagination-arg', {}),
      ...single('publication-filter', {}),
      ...single('generic-morph', {}),
      ...single('error', {}),
      ...single('float', {}),
      ...single('long', {}),
    };
    expect(problems(files)).toEqual([
      'error.json #/info/singularName: singularName "error" becomes the GraphQL type "Error", which capi already uses\n    fix: choose another singularName',
      'file-info.json #/info/singularName: singularName "file-info" gets the input type "FileInfoInput", which capi already uses\n    fix: choose another singularName',
      'float.json #/info/singularName: singularName "float" becomes the GraphQL type "Float", which capi already uses\n    fix: choose another singularName',
      'generic-morph.json #/info/singularName: singularName "generic-morph" becomes the GraphQL type "GenericMorph", which capi already uses\n    fix: choose another singularName',
      'long.json #/info/singularName: singularName "long" becomes the GraphQL type "Long", which capi already uses\n    fix: choose another singularName',
      'pagination-arg.json #/info/singularName: singularName "pagination-arg" becomes the GraphQL type "PaginationArg", which capi already uses\n    fix: choose another singularName',
      'publication-filter.json #/info/singularName: singularName "publication-filter" becomes the GraphQL type "PublicationFilter", which capi already uses\n    fix: choose another singularName',
      'string-filter-input.json #/info/singularName: singularName "string-filter-input" becomes the GraphQL type "StringFilterInput", which capi already uses\n    fix: choose another singularName',
      'upload-file-input.json #/info/singularName: singularName "upload-file-input" becomes the GraphQL type "UploadFileInput", which capi already uses\n    fix: choose another singularName',
    ]);
    for (const name of ['file-info', 'string-filter-input', 'upload-file-input', 'pagination-arg', 'publication-filter', 'generic-morph', 'error', 'long']) {
      expect(emitterError(single(name, {}))).toMatch(/is defined twice$/);
    }
  });

  it('reports a component that is a content type once, whatever else they share', () => {
    const files = { ...single('component-shared-seo', {}), 'components/shared/seo.json': component('Seo', {}) };
    expect(problems(files)).toEqual([
      'components/shared/seo.json #: component shared.seo becomes the GraphQL type "ComponentSharedSeo", which is already the GraphQL type of singularName "component-shared-seo" (component-shared-seo.json)\n    fix: rename the component file or its category folder',
    ]);
  });

  it('accepts names that only look alike', () => {
    const files = {
      ...single('h2o-reading', { unit: { type: 'enumeration', enum: ['S', 's', 'XL', 'x_l'] }, blocks: dynamicZone }),
      ...single('h-2-o', {}, { collectionName: 'h_2_os' }),
      ...single('article', {}),
      ...single('article-entity-response', {}),
      'components/shared/quote.json': quote,
    };
    expect(problems(files)).toEqual([]);
    expect(emitterError(files)).toBeUndefined();
  });
});

describe('derived GraphQL names match the emitter', () => {
  it('cover every type the SDL of the example model defines', () => {
    const emitted = graphqlTypeDefinitions(loadModel(exampleContentTypes)).map((d) => d.name);
    const derived = derivedNames(exampleContentTypes);
    expect(emitted.filter((name) => !derived.has(name))).toEqual([]);
  });

  it('cover enums, dynamic zones, single types and plugin types', () => {
    const dir = writeModel({
      ...single('h2o-reading', { unit: { type: 'enumeration', enum: ['l', 'ml'] }, blocks: dynamicZone, quote: { type: 'component', component: 'shared.quote' } }),
      'global.json': contentType('global', { theme: { type: 'enumeration', enum: ['light', 'dark'] }, sections: dynamicZone }, { kind: 'singleType' }),
      'components/shared/quote.json': component('Quote', { tone: { type: 'enumeration', enum: ['calm', 'loud'] } }),
    });
    const emitted = graphqlTypeDefinitions(loadModel(dir)).map((d) => d.name);
    expect(emitted).toEqual(
      expect.arrayContaining(['H2OReading', 'ENUM_H2OREADING_UNIT', 'H2OReadingBlocksDynamicZone', 'ENUM_GLOBAL_THEME', 'ENUM_COMPONENTSHAREDQUOTE_TONE', 'UploadFile', 'I18NLocale']),
    );
    const derived = derivedNames(dir);
    expect(emitted.filter((name) => !derived.has(name))).toEqual([]);
  });

  it('include what the emitter defines for plugin types even when pruned', () => {
    const builtin = builtinGraphqlNames();
    for (const name of [
      'Query',
      'Mutation',
      'String',
      'ID',
      'JSON',
      'I18NLocaleCode',
      'StringFilterInput',
      'UploadFileInput',
      'I18NLocaleEntityResponseCollection',
      'FileInfoInput',
      'GenericMorph',
      'PrismaClient',
    ]) {
      expect(builtin.has(name), name).toBe(true);
    }
  });
});

function loadModel(dir: string): ReturnType<typeof buildModel> {
  return buildModel(loadSchemas(dir).files);
}
