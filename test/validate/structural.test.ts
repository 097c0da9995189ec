/** Broken files the published JSON Schema rejects, each with the one message the author sees. */
import { describe, expect, it } from 'vitest';
import { component, contentType, notes, problems, single } from './helpers.ts';

const TYPES =
  'string, text, richtext, blocks, email, password, uid, integer, biginteger, decimal, float, boolean, date, datetime, time, timestamp, enumeration, json, media, relation, component, dynamiczone';

describe('structural: attribute types', () => {
  it('names a misspelt attribute type and suggests the right one', () => {
    expect(problems(single('post', { title: { type: 'strnig' } }))).toEqual([
      `post.json #/attributes/title/type: attribute type "strnig" is not a Strapi attribute type\n    fix: did you mean "string"? use one of: ${TYPES}`,
    ]);
  });

  it('reports a missing type once', () => {
    expect(problems(single('post', { title: { required: true } }))).toEqual([`post.json #/attributes/title/type: missing required key "type"\n    fix: add "type" with one of: ${TYPES}`]);
  });

  it('rejects an attribute written as a bare type name', () => {
    expect(problems(single('post', { title: 'string' }))).toEqual([
      'post.json #/attributes/title: attribute "title" must be an object with a "type", e.g. {"type": "string"}\n    fix: set "title" to an object with a "type", e.g. {"type": "string"}',
    ]);
  });

  it('requires the plugin uid of a custom field', () => {
    expect(problems(single('post', { color: { type: 'customField', options: { format: 'hex' } } }))).toEqual([
      'post.json #/attributes/color/customField: missing required key "customField"\n    fix: add "customField": UID of the custom field, "plugin::<plugin>.<field>"',
    ]);
  });

  it('accepts polymorphic relations, which the model then leaves out with a note', () => {
    expect(problems(single('post', { owner: { type: 'relation', relation: 'morphToMany' }, pin: { type: 'relation', relation: 'morphOne', target: 'api::post.post', morphBy: 'owner' } }))).toEqual([]);
  });

  it('requires the target of every relation but a morphTo* one', () => {
    expect(problems(single('post', { owner: { type: 'relation', relation: 'morphMany' } }))).toEqual([
      'post.json #/attributes/owner/target: missing required key "target"\n    fix: add "target": UID of the target content type, e.g. "api::author.author"',
    ]);
  });

  it('suggests the relation kind meant', () => {
    expect(problems({ ...single('post', { tags: { type: 'relation', relation: 'manyToMnay', target: 'api::tag.tag' } }), ...single('tag', {}) })).toEqual([
      'post.json #/attributes/tags/relation: relation kind "manyToMnay" is not a Strapi relation kind\n    fix: did you mean "manyToMany"? use one of: oneToOne, oneToMany, manyToOne, manyToMany, oneWay, manyWay',
    ]);
  });

  it('rejects dynamic zones inside components', () => {
    const files = { ...single('post', {}), 'components/shared/zone.json': component('Zone', { blocks: { type: 'dynamiczone', components: ['shared.zone'] } }) };
    expect(problems(files)).toEqual([
      'components/shared/zone.json #/attributes/blocks/type: dynamic zones are not allowed in components\n    fix: move the dynamic zone to a content type, or use a repeatable "component" attribute',
    ]);
  });
});

describe('structural: attribute options', () => {
  it('suggests the key meant for a misspelt option', () => {
    expect(problems(single('post', { title: { type: 'string', requierd: true } }))).toEqual(['post.json #/attributes/title/requierd: unknown key "requierd"\n    fix: did you mean "required"?']);
  });

  it('notes a key nothing reads and nothing is close to: Strapi boots with it and ignores it', () => {
    const files = single('post', { slug: { type: 'uid', options: { separator: '-', lower: true } } });
    expect(problems(files)).toEqual([]);
    expect(notes(files)).toEqual(['post.json #/attributes/slug/options/lower: unknown key "lower": ignored, as Strapi ignores it']);
  });

  it('notes an option of another type (unique on a relation): Strapi ignores it there', () => {
    const files = { ...single('post', { tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag', private: true, unique: true } }), ...single('tag', {}) };
    expect(problems(files)).toEqual([]);
    expect(notes(files)).toEqual(['post.json #/attributes/tags/unique: "unique" is not an option of relation attributes: ignored, as Strapi ignores it']);
  });

  it('notes unique on media and dynamic zones, and accepts private on them', () => {
    const files = {
      ...single('post', {
        cover: { type: 'media', unique: true },
        seo: { type: 'component', component: 'shared.seo', private: true },
        blocks: { type: 'dynamiczone', components: ['shared.seo'], unique: true },
      }),
      'components/shared/seo.json': component('Seo', { title: { type: 'string' } }),
    };
    expect(problems(files)).toEqual([]);
    expect(notes(files)).toEqual([
      'post.json #/attributes/cover/unique: "unique" is not an option of media attributes: ignored, as Strapi ignores it',
      'post.json #/attributes/blocks/unique: "unique" is not an option of dynamiczone attributes: ignored, as Strapi ignores it',
    ]);
  });

  it('lists the choices for a missing relation kind', () => {
    expect(problems({ ...single('post', { tags: { type: 'relation', target: 'api::tag.tag' } }), ...single('tag', {}) })).toEqual([
      'post.json #/attributes/tags/relation: missing required key "relation"\n    fix: add "relation" with one of: oneToOne, oneToMany, manyToOne, manyToMany, oneWay, manyWay, morphToOne, morphToMany, morphOne, morphMany',
    ]);
  });

  it('explains Strapi options capi does not implement', () => {
    expect(problems({ ...single('post', { author: { type: 'relation', relation: 'oneToOne', target: 'api::tag.tag', targetAttribute: 'post' } }), ...single('tag', {}) })).toEqual([
      'post.json #/attributes/author/targetAttribute: "targetAttribute" is not supported by capi\n    fix: write the inverse side with "inversedBy"/"mappedBy" instead of "targetAttribute"',
    ]);
  });

  it('requires lengths to be non-negative integers', () => {
    expect(problems(single('post', { title: { type: 'string', maxLength: -1, minLength: 'short' } }))).toEqual([
      'post.json #/attributes/title/maxLength: "maxLength" must be a non-negative integer\n    fix: set "maxLength" to a non-negative integer',
      'post.json #/attributes/title/minLength: "minLength" must be a non-negative integer\n    fix: set "minLength" to a non-negative integer',
    ]);
  });

  it('requires a default of the attribute type', () => {
    const files = single('post', { featured: { type: 'boolean', default: 'yes' }, price: { type: 'float', default: '1.5' }, serial: { type: 'biginteger', default: 'x1' } });
    expect(problems(files)).toEqual([
      'post.json #/attributes/featured/default: "default" must be true or false\n    fix: set "default" to true or false',
      'post.json #/attributes/price/default: "default" must be a number\n    fix: set "default" to a number',
      'post.json #/attributes/serial/default: "default" must be an integer, or a string of digits\n    fix: set "default" to an integer, or a string of digits',
    ]);
  });

  it('requires a non-empty enum list', () => {
    expect(problems(single('post', { theme: { type: 'enumeration' }, mode: { type: 'enumeration', enum: [] } }))).toEqual([
      'post.json #/attributes/mode/enum: "enum" must not be empty\n    fix: add at least one item',
      'post.json #/attributes/theme/enum: missing required key "enum"\n    fix: add "enum": the allowed values (strings; GraphQL names each as Strapi does: datetime-local is datetime_local)',
    ]);
  });

  it('checks media kinds', () => {
    expect(problems(single('post', { cover: { type: 'media', allowedTypes: ['images', 'pictures', 'images'] } }))).toEqual([
      'post.json #/attributes/cover/allowedTypes/1: "allowedTypes[1]" must be one of images, files, videos, audios, not "pictures"\n    fix: use one of: images, files, videos, audios',
      'post.json #/attributes/cover/allowedTypes/2: "allowedTypes" lists "images" twice\n    fix: remove the duplicate',
    ]);
  });

  it('checks i18n options and lets other plugins options through', () => {
    const files = single('post', { title: { type: 'string', pluginOptions: { i18n: { localized: 'yes' }, 'content-manager': { visible: false } } } });
    expect(problems(files)).toEqual(['post.json #/attributes/title/pluginOptions/i18n/localized: "pluginOptions.i18n.localized" must be true or false\n    fix: set "localized" to true or false']);
  });
});

describe('structural: the file itself', () => {
  it('reports missing info keys', () => {
    const files = { 'post.json': { kind: 'collectionType', collectionName: 'posts', info: { singularName: 'post' }, attributes: {} } };
    expect(problems(files)).toEqual([
      'post.json #/info/displayName: missing required key "displayName"\n    fix: add "displayName": human-readable name',
      'post.json #/info/pluralName: missing required key "pluralName"\n    fix: add "pluralName": API ID of the collection: REST route /api/<pluralName> and GraphQL list query',
    ]);
  });

  it('rejects an unknown kind', () => {
    expect(problems(single('post', {}, { kind: 'collection' }))).toEqual([
      'post.json #/kind: "kind" must be one of collectionType, singleType, not "collection"\n    fix: use one of: collectionType, singleType',
    ]);
  });

  it('rejects unknown top-level keys and accepts $schema and Strapi extras', () => {
    const files = single(
      'post',
      {},
      {
        $schema: '../schemas/content-type.schema.json',
        pluginOptionz: {},
        pluginOptions: { i18n: { localized: false }, 'content-manager': { visible: false }, 'content-type-builder': { visible: true } },
        options: { draftAndPublish: true, comment: '' },
        info: { singularName: 'post', pluralName: 'posts', displayName: 'Post', description: '', icon: 'file', name: 'Post' },
      },
    );
    expect(problems(files)).toEqual(['post.json #/pluginOptionz: unknown key "pluginOptionz"\n    fix: did you mean "pluginOptions"?']);
  });

  it('suggests the kebab-case form of a camelCase name', () => {
    expect(problems({ 'blog-post.json': { ...obj(contentType('blog-post', {})), info: { singularName: 'blogPost', pluralName: 'blog-posts', displayName: 'Blog post' } } })).toEqual([
      'blog-post.json #/info/singularName: "info.singularName" must be a kebab-case name like "blog-post"\n    fix: use "blog-post"',
    ]);
  });

  it('keeps digits with their word in the suggested kebab-case name', () => {
    expect(problems({ 'h2o-reading.json': { ...obj(contentType('h2o-reading', {})), info: { singularName: 'h2oReading', pluralName: 'h2o-readings', displayName: 'H2O reading' } } })).toEqual([
      'h2o-reading.json #/info/singularName: "info.singularName" must be a kebab-case name like "blog-post"\n    fix: use "h2o-reading"',
    ]);
  });

  it('suggests a table name for an invalid collectionName', () => {
    expect(problems(single('post', {}, { collectionName: 'my posts!' }))).toEqual([
      'post.json #/collectionName: "collectionName" must be a table name: a letter, then letters, digits, "_" or "-", at most 63 characters\n    fix: use "my_posts"',
    ]);
  });

  it('rejects a file that is not an object', () => {
    expect(problems({ 'post.json': [1, 2] })).toEqual(['post.json #: the schema must be an object\n    fix: write the schema as one JSON object: {"kind": ..., "info": ..., "attributes": ...}']);
  });

  it('notes content-type keys in a component, which Strapi ignores there', () => {
    const files = { ...single('post', {}), 'components/shared/seo.json': { kind: 'collectionType', info: { displayName: 'Seo' }, attributes: {} } };
    expect(problems(files)).toEqual([]);
    expect(notes(files)).toEqual(['components/shared/seo.json #/kind: unknown key "kind": ignored, as Strapi ignores it']);
  });
});

function obj(json: unknown): Record<string, unknown> {
  return json as Record<string, unknown>;
}
