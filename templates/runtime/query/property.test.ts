/**
 * Hostile query strings against parseQueryString + parseListQuery/parseReadQuery: whatever comes
 * in, the only thing that may come out besides a query is a ValidationError or PaginationError
 * (never a TypeError, a RangeError or a hang), and Object.prototype stays untouched.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { model } from '../../../test/support/runtime-model.ts';
import { PaginationError, ValidationError } from '../errors.ts';
import type { ContentTypeSchema } from '../schema.ts';
import { uploadFileSchema } from '../upload/file-schema.ts';
import { parseListQuery, parseQueryString, parseReadQuery, type QueryContext } from './params.ts';

const schemas: readonly ContentTypeSchema[] = [...Object.values(model.contentTypes), uploadFileSchema];
const attributeNames = [...new Set([...Object.values(model.contentTypes), ...Object.values(model.components)].flatMap((type) => Object.keys(type.attributes)))];
const componentUids = Object.keys(model.components);
const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
const arrayPrototypeBefore = Object.getOwnPropertyNames(Array.prototype).sort();

const KEYWORDS = ['filters', 'populate', 'sort', 'fields', 'pagination', 'status', 'locale', 'on', 'page', 'pageSize', 'start', 'limit', 'withCount', '_q', 'publicationFilter', 'hasPublishedVersion'];
const OPERATORS = ['$and', '$or', '$not', '$eq', '$eqi', '$ne', '$in', '$notIn', '$between', '$null', '$notNull', '$lt', '$gte', '$contains', '$startsWith', '$foo', '$'];
const HOSTILE = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'length',
  '0',
  '1',
  '99',
  '100',
  '-1',
  '',
  '*',
  '.',
  '..',
  'localizations',
  'createdBy',
  'id',
  'documentId',
  'locale',
];
const VALUES = [
  '*',
  'true',
  'false',
  '1',
  '0',
  '-1',
  'abc',
  '',
  'NaN',
  'Infinity',
  '1e400',
  '2024-02-30',
  '25:61',
  'asc',
  'desc',
  'title:desc',
  'a,b',
  'seo.shareImage',
  'blocks.file',
  '%',
  '%E0%A4%A',
  '\u0000',
  '😀',
  'ǅ',
  '+',
  'null',
  'undefined',
];

const word = fc.oneof(fc.constantFrom(...KEYWORDS, ...OPERATORS, ...HOSTILE, ...attributeNames, ...componentUids), fc.string({ maxLength: 6 }), fc.string({ unit: 'grapheme', maxLength: 4 }));
const value = fc.oneof(fc.constantFrom(...VALUES), fc.string({ maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 8 }));

/** One `key[a][b]...=value` pair, brackets sometimes broken. */
const pair = fc
  .tuple(
    word,
    fc.array(
      fc.oneof(
        word.map((w) => `[${w}]`),
        fc.constantFrom('[]', '[', ']', '[[', ']]', '[]]', '.', '%5B', '%5D'),
      ),
      { maxLength: 12 },
    ),
    fc.option(value, { nil: undefined }),
  )
  .map(([key, path, v]) => `${encodeURIComponent(key)}${path.join('')}${v === undefined ? '' : `=${encodeURIComponent(v)}`}`);

const structured = fc.array(pair, { maxLength: 25 }).map((pairs) => pairs.join('&'));
const raw = fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 200 }));
const deep = fc
  .tuple(fc.constantFrom('populate', 'filters', 'sort', 'fields'), fc.array(word, { minLength: 15, maxLength: 45 }), value)
  .map(([root, path, v]) => `${root}${path.map((w) => `[${encodeURIComponent(w)}]`).join('')}=${encodeURIComponent(v)}`);
const huge = fc
  .tuple(fc.constantFrom('filters[$or][%i][title]', 'populate[%i]', 'fields[%i]', 'sort[%i]', 'filters[title][$in][%i]', 'populate[]', 'fields[]'), fc.integer({ min: 90, max: 1100 }), value)
  .map(([template, count, v]) => Array.from({ length: count }, (_, i) => `${template.replace('%i', String(i))}=${encodeURIComponent(v)}`).join('&'));
/** Valid-looking paths through the model, so the deeper rules run too. */
const plausible = fc
  .array(
    fc
      .tuple(
        fc.constantFrom('populate', 'filters', 'sort', 'fields'),
        fc.array(fc.constantFrom(...attributeNames, ...componentUids, 'populate', 'on', 'fields', 'filters', 'sort', '$eq', '$in', '$or', '$not', '0', '1'), { maxLength: 8 }),
        value,
      )
      .map(([root, path, v]) => `${root}${path.map((w) => `[${w}]`).join('')}=${encodeURIComponent(v)}`),
    { maxLength: 10 },
  )
  .map((pairs) => pairs.join('&'));

const queryString = fc.oneof(structured, raw, deep, huge, plausible);

function context(schema: ContentTypeSchema, readable: boolean): QueryContext {
  return {
    schema,
    model,
    rest: { defaultLimit: 25, maxLimit: 100, withCount: true },
    i18n: {
      defaultLocale: 'en',
      locales: [
        { code: 'en', name: 'en' },
        { code: 'fr', name: 'fr' },
      ],
    },
    canRead: (uid) => readable || uid.length % 2 === 0,
  };
}

/** Parses, and lets only the two client errors through. */
function parseSafely(search: string, schema: ContentTypeSchema, readable: boolean, list: boolean): void {
  try {
    const raw = parseQueryString(search);
    if (list) parseListQuery(raw, context(schema, readable));
    else parseReadQuery(raw, context(schema, readable));
  } catch (error) {
    if (!(error instanceof ValidationError) && !(error instanceof PaginationError)) {
      throw new Error(`unexpected ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)} for ${JSON.stringify(search)}`);
    }
  }
}

describe('hostile query strings', () => {
  afterAll(() => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
    expect(Object.getOwnPropertyNames(Array.prototype).sort()).toEqual(arrayPrototypeBefore);
  });

  it('only ever fail with a ValidationError or a PaginationError, quickly', () => {
    fc.assert(
      fc.property(queryString, fc.constantFrom(...schemas), fc.boolean(), fc.boolean(), (search, schema, readable, list) => {
        parseSafely(search, schema, readable, list);
      }),
      { numRuns: 1500 },
    );
  });

  it('never pollute Object.prototype', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('__proto__', 'constructor', 'prototype', 'polluted', 'populate', 'filters', '0'), { minLength: 1, maxLength: 6 }),
        fc.constantFrom(...schemas),
        (path, schema) => {
          const search = `${path[0]}${path
            .slice(1)
            .map((key) => `[${key}]`)
            .join('')}[polluted]=yes`;
          parseSafely(search, schema, true, true);
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
          expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('take any value shape without a TypeError, even ones qs never makes', () => {
    const anything = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom<unknown>(...VALUES, null, undefined, 0, 1, -1, true, false, Number.NaN),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(fc.constantFrom(...KEYWORDS, ...OPERATORS, ...HOSTILE, ...attributeNames.slice(0, 20), ...componentUids), tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    const rootKeys = fc.constantFrom('filters', 'populate', 'sort', 'fields', 'pagination', 'status', 'locale', 'page', 'publicationFilter', 'hasPublishedVersion');
    fc.assert(
      fc.property(fc.dictionary(rootKeys, anything, { maxKeys: 5 }), fc.constantFrom(...schemas), fc.boolean(), (raw, schema, list) => {
        try {
          if (list) parseListQuery(raw, context(schema, true));
          else parseReadQuery(raw, context(schema, true));
        } catch (error) {
          if (!(error instanceof ValidationError) && !(error instanceof PaginationError)) throw error;
        }
      }),
      { numRuns: 1000 },
    );
  });
});
