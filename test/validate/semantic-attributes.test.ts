/** Attribute names and the consistency of each attribute's options. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSchemas } from '../../generator/load.ts';
import { buildModel } from '../../generator/model/build.ts';
import { normalizeSchemas } from '../../generator/normalize.ts';
import { MAX_DEFAULT_DEPTH } from '../../generator/validate/rules-defaults.ts';
import { component, contentType, problems, single, validateDir, writeModel, type Json } from './helpers.ts';

describe('semantic: attribute names', () => {
  it('rejects reserved names, compared in snake_case, and names starting with __', () => {
    const files = single('post', {
      id: { type: 'string' },
      documentID: { type: 'string' },
      __typename: { type: 'string' },
      createdAt: { type: 'datetime' },
      strapiStage: { type: 'string' },
      locale: { type: 'string' },
    });
    expect(problems(files)).toEqual([
      'post.json #/attributes/__typename: attribute name "__typename" is reserved: names starting with "__" are reserved by GraphQL and Strapi (__typename, __component)\n    fix: rename the attribute',
      'post.json #/attributes/createdAt: attribute name "createdAt" is reserved: every entry already has it as a timestamp\n    fix: rename the attribute',
      'post.json #/attributes/documentID: attribute name "documentID" is reserved: every entry already has it as its identifier\n    fix: rename the attribute',
      'post.json #/attributes/id: attribute name "id" is reserved: every entry already has it as its identifier\n    fix: rename the attribute',
      'post.json #/attributes/locale: attribute name "locale" is reserved: internationalization adds it to entries\n    fix: rename the attribute',
      'post.json #/attributes/strapiStage: attribute name "strapiStage" is reserved: names starting with "strapi" are reserved by Strapi\n    fix: rename the attribute',
    ]);
  });

  it('rejects the parent columns of component rows and link field names', () => {
    const files = { ...single('post', { author_lnk: { type: 'string' } }), 'components/shared/seo.json': component('Seo', { entityId: { type: 'integer' } }) };
    expect(problems(files)).toEqual([
      'components/shared/seo.json #/attributes/entityId: attribute name "entityId" is reserved: every component row already has it as a column linking it to its parent\n    fix: rename the attribute',
      'post.json #/attributes/author_lnk: attribute name "author_lnk" is reserved: capi names the link field of a relation "<relation>_lnk"\n    fix: rename the attribute',
    ]);
  });

  it('rejects names that are not identifiers', () => {
    expect(problems(single('post', { 'first-name': { type: 'string' }, '2fa': { type: 'boolean' } }))).toEqual([
      'post.json #/attributes/2fa: attribute name "2fa" cannot be a GraphQL, Prisma and TypeScript identifier\n    fix: use letters, digits and "_", starting with a letter',
      'post.json #/attributes/first-name: attribute name "first-name" cannot be a GraphQL, Prisma and TypeScript identifier\n    fix: use letters, digits and "_", starting with a letter, e.g. "firstName"',
    ]);
  });

  it('rejects two attributes sharing one column', () => {
    expect(problems(single('post', { readingTime: { type: 'integer' }, reading_time: { type: 'integer' } }))).toEqual([
      'post.json #/attributes/reading_time: attribute "reading_time" has the same column "reading_time" as "readingTime"\n    fix: rename one of them; columns are the snake_case of attribute names',
    ]);
  });
});

describe('semantic: enumerations', () => {
  it('requires unique values and a default among them', () => {
    const files = single('post', { theme: { type: 'enumeration', enum: ['light', 'dark-mode', '2col', 'light', 'true', 'null', 'Ok_1'], default: 'purple' } });
    expect(problems(files)).toEqual([
      'post.json #/attributes/theme/default: default "purple" is not one of the enumeration values\n    fix: use one of: light, dark-mode, 2col, true, null, Ok_1',
      'post.json #/attributes/theme/enum/3: enumeration value "light" is listed twice\n    fix: remove the duplicate',
    ]);
  });

  it('accepts every value Strapi writes whose GraphQL name is not empty (datetime-local, 3d, a b, true, __draft)', () => {
    expect(problems(single('post', { kind: { type: 'enumeration', enum: ['datetime-local', '3d', 'a b', 'true', 'null', '__draft', 'Ünïcode', 'r&d'] } }))).toEqual([]);
  });

  it('rejects a value with no letter or digit', () => {
    expect(problems(single('post', { stage: { type: 'enumeration', enum: ['draft', '--', ''] } }))).toEqual([
      'post.json #/attributes/stage/enum/1: enumeration value "--" has no letter or digit, so it has no GraphQL name\n    fix: use at least one letter or digit',
      'post.json #/attributes/stage/enum/2: enumeration value "" has no letter or digit, so it has no GraphQL name\n    fix: use at least one letter or digit',
    ]);
  });

  it('rejects two values that become one GraphQL enum value name, naming both', () => {
    const files = single('post', {
      a: { type: 'enumeration', enum: ['a_b', 'a__b', 'c'] },
      b: { type: 'enumeration', enum: ['x large', 'x_large'] },
      c: { type: 'enumeration', enum: ['_draft_', 'draft'] },
      d: { type: 'enumeration', enum: ['_true', 'true_'] },
      e: { type: 'enumeration', enum: ['x-l', 'x l'] },
      f: { type: 'enumeration', enum: ['published', '__published', '3d', '_3d'] },
    });
    const rename = 'fix: rename one of them; GraphQL names a value by its letters and digits, joined by single "_"';
    expect(problems(files)).toEqual([
      `post.json #/attributes/a/enum/1: enumeration values "a_b" and "a__b" both become the GraphQL enum value "a_b"\n    ${rename}`,
      `post.json #/attributes/b/enum/1: enumeration values "x large" and "x_large" both become the GraphQL enum value "x_large"\n    ${rename}`,
      `post.json #/attributes/c/enum/1: enumeration values "_draft_" and "draft" both become the GraphQL enum value "draft"\n    ${rename}`,
      `post.json #/attributes/d/enum/1: enumeration values "_true" and "true_" both become the GraphQL enum value "_true"\n    ${rename}`,
      `post.json #/attributes/e/enum/1: enumeration values "x-l" and "x l" both become the GraphQL enum value "x_l"\n    ${rename}`,
      `post.json #/attributes/f/enum/1: enumeration values "published" and "__published" both become the GraphQL enum value "published"\n    ${rename}`,
      `post.json #/attributes/f/enum/3: enumeration values "3d" and "_3d" both become the GraphQL enum value "_3d"\n    ${rename}`,
    ]);
  });

  it('accepts values whose GraphQL names differ only in case', () => {
    expect(problems(single('post', { size: { type: 'enumeration', enum: ['S', 's', 'XL', 'x_l', 'xl'] } }))).toEqual([]);
  });

  it('reports a non-string enum value once, from the schema', () => {
    expect(problems(single('post', { theme: { type: 'enumeration', enum: ['light', 2] } }))).toEqual([
      'post.json #/attributes/theme/enum/1: "enum[1]" must be a string\n    fix: set "enum[1]" to a string',
    ]);
  });
});

describe('semantic: defaults, bounds and patterns', () => {
  it('checks default formats and bounds', () => {
    const files = single('post', {
      d: { type: 'date', default: '2024-02-30' },
      t: { type: 'time', default: '25:00' },
      dt: { type: 'datetime', default: 'yesterday' },
      n: { type: 'integer', min: 1, max: 10, default: 20 },
      s: { type: 'string', maxLength: 3, default: 'long' },
      r: { type: 'string', regex: '^[a-z]+$', default: 'ABC' },
      e: { type: 'email', default: 'nobody' },
    });
    expect(problems(files)).toEqual([
      'post.json #/attributes/d/default: default "2024-02-30" is not a date\n    fix: write it as YYYY-MM-DD, e.g. "2024-01-31"',
      'post.json #/attributes/dt/default: default "yesterday" is not an ISO 8601 date-time\n    fix: write it like "2024-01-31T09:30:00.000Z"',
      'post.json #/attributes/e/default: default "nobody" is not an e-mail address\n    fix: write an address like "name@example.com", or remove "default"',
      'post.json #/attributes/n/default: default 20 is greater than "max" (10)\n    fix: lower the default, or raise "max"',
      'post.json #/attributes/r/default: default "ABC" does not match "regex"\n    fix: change the default so that it matches the pattern, or fix "regex"',
      'post.json #/attributes/s/default: default "long" is longer than "maxLength" (3)\n    fix: shorten the default, or raise "maxLength"',
      'post.json #/attributes/t/default: default "25:00" is not a time of day\n    fix: write it as HH:mm:ss.SSS, e.g. "09:30:00.000"',
    ]);
  });

  it('accepts well-formed defaults', () => {
    const files = single('post', {
      d: { type: 'date', default: '2024-02-29' },
      t: { type: 'time', default: '09:30:00.000' },
      dt: { type: 'datetime', default: '2024-01-31T09:30:00.000Z' },
      big: { type: 'biginteger', default: '9007199254740993', max: '9007199254740999' },
      j: { type: 'json', default: { a: [1] } },
    });
    expect(problems(files)).toEqual([]);
  });

  it('refuses a JSON default nested deeper than a client could write it, before generate would overflow the stack', () => {
    const nested = (levels: number, wrap: (inner: Json) => Json): Json => {
      let value: Json = 1;
      for (let level = 0; level < levels; level += 1) value = wrap(value);
      return value;
    };
    const refusal = (name: string) =>
      `post.json #/attributes/${name}/default: default nests arrays and objects deeper than ${MAX_DEFAULT_DEPTH} levels\n    fix: flatten it to at most ${MAX_DEFAULT_DEPTH} levels, or set the value in a lifecycle hook`;
    const files = single('post', {
      edge: { type: 'json', default: nested(MAX_DEFAULT_DEPTH, (inner) => [inner]) },
      lists: { type: 'json', default: nested(MAX_DEFAULT_DEPTH + 1, (inner) => [inner]) },
      objects: { type: 'json', default: nested(600, (inner) => ({ a: inner })) },
    });
    expect(problems(files)).toEqual([refusal('lists'), refusal('objects')]);
    expect(MAX_DEFAULT_DEPTH).toBe(98);
    // Deeper than JSON.stringify can write: the loader says so rather than calling it a syntax error.
    const dir = writeModel({});
    const deepest = `${'['.repeat(20_000)}1${']'.repeat(20_000)}`;
    writeFileSync(join(dir, 'post.json'), JSON.stringify(contentType('post', { deepest: { type: 'json', default: '<deep>' } })).replace('"<deep>"', deepest));
    expect(validateDir(dir).map((d) => `${d.file}: ${d.message}`)).toEqual(['post.json: the JSON is nested too deeply to read']);
  });

  it('requires min <= max and minLength <= maxLength, big integers included', () => {
    const files = single('post', { n: { type: 'integer', min: 10, max: 1 }, s: { type: 'string', minLength: 5, maxLength: 2 }, big: { type: 'biginteger', min: '10', max: 5 } });
    expect(problems(files)).toEqual([
      'post.json #/attributes/big/max: "max" (5) is less than "min" (10)\n    fix: make "max" at least "min", or swap them',
      'post.json #/attributes/n/max: "max" (1) is less than "min" (10)\n    fix: make "max" at least "min", or swap them',
      'post.json #/attributes/s/maxLength: "maxLength" (2) is less than "minLength" (5)\n    fix: make "maxLength" at least "minLength", or swap them',
    ]);
  });

  it('rejects min and max on a component that is not repeatable', () => {
    const files = { ...single('post', { seo: { type: 'component', component: 'shared.seo', min: 1 } }), 'components/shared/seo.json': component('Seo', {}) };
    expect(problems(files)).toEqual(['post.json #/attributes/seo/min: "min" only applies to repeatable components\n    fix: set "repeatable": true, or remove "min"']);
  });

  it('requires regex to compile', () => {
    expect(problems(single('post', { code: { type: 'string', regex: '([a-z' } }))).toEqual([
      'post.json #/attributes/code/regex: "regex" does not compile: Unterminated character class\n    fix: write a JavaScript regular expression, without the surrounding slashes',
    ]);
  });
});

describe('semantic: uid and localization', () => {
  it('requires targetField to name a string or text attribute of the same type', () => {
    const files = single('post', { title: { type: 'string' }, cover: { type: 'media' }, slug: { type: 'uid', targetField: 'titel' }, code: { type: 'uid', targetField: 'cover' } });
    expect(problems(files)).toEqual([
      'post.json #/attributes/code/targetField: targetField "cover" names a media attribute, not a string or text attribute\n    fix: name a string or text attribute (title)',
      'post.json #/attributes/slug/targetField: targetField "titel" is not an attribute of this content type\n    fix: did you mean "title"? name a string or text attribute (title)',
    ]);
  });

  it('accepts, as Strapi does, localized attributes on a type that is not localized and in components, with a note: the flag has no effect there', () => {
    const localized = { pluginOptions: { i18n: { localized: true } } };
    const files = { ...single('post', { title: { type: 'string', ...localized } }), 'components/shared/b.json': component('B', { t: { type: 'string', ...localized } }) };
    expect(problems(files)).toEqual([]);
    const normalized = normalizeSchemas(loadSchemas(writeModel(files)).files);
    expect(normalized.notes.map((n) => `${n.file} #${n.pointer}: ${n.message}`)).toEqual([
      'components/shared/b.json #/attributes/t/pluginOptions/i18n/localized: "localized" has no effect in a component (a component follows the field that holds it)',
      'post.json #/attributes/title/pluginOptions/i18n/localized: "localized" has no effect on a type that is not localized',
    ]);
    expect(buildModel(normalized.files).contentTypes[0]?.attributes[0]?.localized).toBe(false);
  });

  it('accepts localized attributes on a localized type', () => {
    const files = single('post', { title: { type: 'string', pluginOptions: { i18n: { localized: true } } } }, { pluginOptions: { i18n: { localized: true } } });
    expect(problems(files)).toEqual([]);
  });
});
