/**
 * Every key Strapi 5's Content-Type Builder, its core plugins and common community plugins write
 * is accepted: the ones that change the content API are served, the others ignored.
 */
import { describe, expect, it } from 'vitest';
import { loadSchemas } from '../../generator/load.ts';
import { buildModel } from '../../generator/model/build.ts';
import { normalizeSchemas } from '../../generator/normalize.ts';
import { SCALAR_TYPE_NAMES } from '../../templates/contract/scalar-types.ts';
import { component, notes, problems, single, writeModel, type Json } from './helpers.ts';

/** A content type written as Strapi's admin and plugins write one, with every key they use. */
const STRAPI_WRITTEN: Record<string, Json> = {
  'article.json': {
    kind: 'collectionType',
    collectionName: 'kudos-articles',
    info: { singularName: 'article', pluralName: 'articles', displayName: 'Article', description: '', icon: 'file' },
    options: { draftAndPublish: true, comment: '', reviewWorkflows: true, populateCreatorFields: false, privateAttributes: ['internal'] },
    pluginOptions: { i18n: { localized: true }, 'content-manager': { visible: true }, 'content-type-builder': { visible: true }, seo: true },
    config: { layouts: { list: ['title'] } },
    attributes: {
      title: { type: 'string', required: true, displayName: 'Title', conditions: { visible: { '==': [{ var: 'kind' }, 'post'] } }, pluginOptions: { i18n: { localized: true } } },
      internal: { type: 'text', searchable: false, column: { notNullable: false } },
      color: { type: 'customField', customField: 'plugin::color-picker.color', options: { format: 'hex' }, required: true },
      tags: { type: 'customField', customField: 'plugin::multi-select.multi-select', options: ['a', 'b'], default: [] },
      body: { type: 'customField', customField: 'plugin::ckeditor5.CKEditor', options: { preset: 'defaultHtml' }, maxLength: 5000 },
      geo: { type: 'customField', customField: 'plugin::acme.map-pin', options: {} },
      kind: { type: 'enumeration', enum: ['datetime-local', '3d', 'a b', 'post'], enumName: 'article_kind' },
      author: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user', inversedBy: 'articles' },
      editor: { type: 'relation', relation: 'oneToOne', target: 'admin::user', useJoinTable: false, private: true },
      owners: { type: 'relation', relation: 'morphToMany' },
      related: { type: 'relation', relation: 'oneToMany', target: 'api::article.article', private: true, writable: true, visible: true, required: false },
      cover: { type: 'media', multiple: false, allowedTypes: ['images'], private: true, displayName: 'Cover' },
      seo: { type: 'component', component: 'shared.seo', repeatable: false, private: true, displayName: 'Seo' },
      blocks: { type: 'dynamiczone', components: ['shared.seo'], private: true },
    },
  },
  'components/shared/seo.json': {
    collectionName: 'components_shared_seos',
    info: { displayName: 'Seo', icon: 'search', description: '' },
    options: {},
    pluginOptions: {},
    config: {},
    attributes: { metaTitle: { type: 'string', displayName: 'Meta title' }, status: { type: 'enumeration', enum: ['a', 'b'] } },
  },
};

describe('keys Strapi writes', () => {
  it('are all accepted: no problem in a file that uses every one of them', () => {
    expect(problems(STRAPI_WRITTEN)).toEqual([]);
  });

  it('are normalized away before the model is built: custom fields as their stored type, privateAttributes as private', () => {
    const normalized = normalizeSchemas(loadSchemas(writeModel(STRAPI_WRITTEN)).files);
    const model = buildModel(normalized.files);
    const article = model.contentTypes[0]!;
    const byName = Object.fromEntries(article.attributes.map((a) => [a.name, a]));
    expect(Object.keys(byName)).toEqual(['title', 'internal', 'color', 'tags', 'body', 'geo', 'kind', 'author', 'related', 'cover', 'seo', 'blocks']);
    // The relation to users is served; the built-in user gets its other side (`articles`).
    expect(byName['author']).toMatchObject({ kind: 'relation', target: 'plugin::users-permissions.user' });
    const user = model.contentTypes.find((t) => t.uid === 'plugin::users-permissions.user')!;
    expect(user.attributes.find((a) => a.name === 'articles')).toMatchObject({ kind: 'relation', target: 'api::article.article' });
    expect(byName['color']).toMatchObject({ kind: 'scalar', type: 'string', required: true });
    expect(byName['tags']).toMatchObject({ kind: 'scalar', type: 'json', default: [] });
    expect(byName['body']).toMatchObject({ kind: 'scalar', type: 'richtext', maxLength: 5000 });
    expect(byName['geo']).toMatchObject({ kind: 'scalar', type: 'json' });
    expect(byName['internal']).toMatchObject({ private: true });
    expect(['related', 'cover', 'seo', 'blocks'].map((n) => byName[n]?.private)).toEqual([true, true, true, true]);
    expect(article.names.table).toBe('kudos-articles');
    expect(normalized.notes.map((n) => `${n.file} #${n.pointer}: ${n.message}`)).toEqual([
      'article.json #/attributes/geo: custom field plugin::acme.map-pin is unknown to capi: served as json; map it to its stored type under "customFields" in capi.config.json',
      'article.json #/attributes/editor: relation "editor" to admin::user is not served: capi does not generate admin::user yet (see docs/moving-from-strapi.md)',
      'article.json #/attributes/owners: polymorphic relation "owners" (morphToMany) is not served (see docs/moving-from-strapi.md)',
    ]);
  });

  it('check the options of a custom field against the type it stores', () => {
    const files = single('post', { color: { type: 'customField', customField: 'plugin::color-picker.color', maxLength: 3, default: '#ff0000' } });
    expect(problems(files)).toEqual(['post.json #/attributes/color/default: default "#ff0000" is longer than "maxLength" (3)\n    fix: shorten the default, or raise "maxLength"']);
  });

  it('still refuse a misspelt key capi reads, with "did you mean", at every level', () => {
    expect(problems(single('post', { title: { type: 'string', requierd: true } }))).toEqual(['post.json #/attributes/title/requierd: unknown key "requierd"\n    fix: did you mean "required"?']);
    expect(problems(single('post', {}, { options: { draftAndPublsh: true } }))).toEqual(['post.json #/options/draftAndPublsh: unknown key "draftAndPublsh"\n    fix: did you mean "draftAndPublish"?']);
    expect(problems({ ...single('post', {}), 'components/shared/seo.json': { collectionNme: 'seos', info: { displayName: 'Seo' }, attributes: {} } })).toEqual([
      'components/shared/seo.json #/collectionNme: unknown key "collectionNme"\n    fix: did you mean "collectionName"?',
    ]);
  });

  it('note, and never refuse, the keys Strapi 5 boots with and ignores: a hand-written description, Strapi 4 leftovers', () => {
    const files = {
      ...single(
        'product',
        {
          name: { type: 'string', description: 'Shown in the catalogue' },
          category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category', description: 'The category of the product' },
          // A misspelling of a key that is itself ignored is no typo worth refusing.
          title: { type: 'string', displayNme: 'Title' },
        },
        { connection: 'default', info: { singularName: 'product', pluralName: 'products', displayName: 'Product', name: 'product', label: 'Product' } },
      ),
      ...single('category', {}, { options: { draftAndPublish: false, timestamps: true, increments: true, softDelete: false } }),
      'components/shared/seo.json': { collectionName: 'components_shared_seos', connection: 'default', info: { displayName: 'Seo', name: 'seo', icon: 'search' }, options: {}, attributes: {} },
    };
    expect(problems(files)).toEqual([]);
    expect(notes(files)).toEqual([
      'category.json #/options/softDelete: unknown key "softDelete": ignored, as Strapi ignores it',
      'components/shared/seo.json #/connection: unknown key "connection": ignored, as Strapi ignores it',
      'product.json #/connection: unknown key "connection": ignored, as Strapi ignores it',
      'product.json #/info/label: unknown key "label": ignored, as Strapi ignores it',
      'product.json #/attributes/name/description: unknown key "description": ignored, as Strapi ignores it',
      'product.json #/attributes/category/description: unknown key "description": ignored, as Strapi ignores it',
      'product.json #/attributes/title/displayNme: unknown key "displayNme": ignored, as Strapi ignores it',
    ]);
  });
});

describe('status as an attribute name', () => {
  it('is reserved beside draft & publish, where it is the publication state', () => {
    expect(problems(single('post', { status: { type: 'string' } }, { options: { draftAndPublish: true } }))).toEqual([
      'post.json #/attributes/status: attribute name "status" is reserved: Strapi reserves it for the publication state of types with draft & publish\n    fix: rename the attribute',
    ]);
  });

  it('is an ordinary attribute without draft & publish and in components, as in Strapi 5', () => {
    const files = { ...single('post', { status: { type: 'string' } }), 'components/shared/x.json': component('X', { status: { type: 'string' } }) };
    expect(problems(files)).toEqual([]);
  });
});

describe('enumName', () => {
  it('names the GraphQL enum as Strapi does, so it must be a GraphQL name and unique', () => {
    const files = {
      ...single('post', { kind: { type: 'enumeration', enum: ['a'], enumName: 'Tag' }, mode: { type: 'enumeration', enum: ['b'], enumName: 'bad-name' } }),
      ...single('tag', { size: { type: 'enumeration', enum: ['s'], enumName: '' } }),
    };
    expect(problems(files)).toEqual([
      'post.json #/attributes/kind: enumeration "kind" gets the enum "Tag", which is already the GraphQL type of singularName "tag" (tag.json)\n    fix: choose another enumName',
      'post.json #/attributes/mode/enumName: "enumName" must be a GraphQL type name: a letter, then letters, digits or "_"\n    fix: set "enumName" to a GraphQL type name: a letter, then letters, digits or "_"',
    ]);
  });
});

describe('custom fields capi does not know', () => {
  const withField = (customField: string, config?: Json): Record<string, Json> => ({
    ...single('post', { ref: { type: 'customField', customField, options: {} } }),
    ...(config === undefined ? {} : { 'capi.config.json': config }),
  });
  const refOf = (files: Record<string, Json>) => {
    const loaded = loadSchemas(writeModel(files));
    return buildModel(normalizeSchemas(loaded.files, loaded.config.customFields).files)
      .contentTypes.find((t) => t.uid === 'api::post.post')!
      .attributes.find((a) => a.name === 'ref');
  };

  it('are served as json with a warning naming each, until the project maps them', () => {
    expect(refOf(withField('plugin::acme.ref'))).toMatchObject({ kind: 'scalar', type: 'json' });
    expect(notes(withField('plugin::acme.ref'))).toEqual([
      'post.json #/attributes/ref: custom field plugin::acme.ref is unknown to capi: served as json; map it to its stored type under "customFields" in capi.config.json',
    ]);
  });

  it('take a type, a default and a generated value from capi.config.json, which is no content type', () => {
    const files = withField('plugin::acme.ref', { customFields: { 'plugin::acme.ref': { type: 'string', default: 'none' }, 'plugin::acme.id': { type: 'uid', generate: 'uuid' } } });
    expect(problems(files)).toEqual([]);
    expect(notes(files)).toEqual([]);
    expect(refOf(files)).toMatchObject({ kind: 'scalar', type: 'string', default: 'none' });
    expect(refOf(withField('plugin::acme.id', { customFields: { 'plugin::acme.id': { type: 'uid', generate: 'uuid' } } }))).toMatchObject({ kind: 'scalar', type: 'uid', generated: 'uuid' });
  });

  it("ship strapi-advanced-uuid's field as Strapi's plugin registers it: a uid, with a UUID generated on create", () => {
    expect(refOf(withField('plugin::strapi-advanced-uuid.uuid'))).toMatchObject({ kind: 'scalar', type: 'uid', generated: 'uuid' });
  });

  it('refuse a mapping that names no stored type, or an unknown key, with the fix', () => {
    expect(problems(withField('plugin::acme.ref', { customFields: { 'plugin::acme.ref': { type: 'strnig', defualt: 'x' } }, custom: {} }))).toEqual([
      'capi.config.json #/custom: unknown key "custom"\n    fix: keys allowed here: customFields',
      'capi.config.json #/customFields/plugin::acme.ref/defualt: unknown key "defualt"\n    fix: did you mean "default"? keys allowed here: type, default, generate',
      `capi.config.json #/customFields/plugin::acme.ref/type: "type" must be the stored type, one of the scalar types (got "strnig")\n    fix: did you mean "string"? use one of: ${SCALAR_TYPE_NAMES.join(', ')}`,
    ]);
  });
});
