/**
 * The REST conformance cases recorded against real Strapi 5 (test/fixtures/conformance), replayed at
 * parser level: every 400 gives Strapi's exact error body, every 200 query parses. The 400s are
 * also written out here, and checked against the recorded files, so that a refreshed recording
 * that changes an error body shows up as a readable diff.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { model } from '../../../test/support/runtime-model.ts';
import { conformanceGoldenDir as goldenDir } from '../../../test/support/fixtures.ts';
import { HttpError } from '../errors.ts';
import type { ContentTypeSchema } from '../schema.ts';
import { uploadFileSchema } from '../upload/file-schema.ts';
import { parseListQuery, parseQueryString, parseReadQuery, type QueryContext } from './params.ts';

function context(schema: ContentTypeSchema): QueryContext {
  return {
    schema,
    model,
    rest: { defaultLimit: 25, maxLimit: 100, withCount: true },
    i18n: {
      defaultLocale: 'en',
      locales: [
        { code: 'en', name: 'English (en)' },
        { code: 'fr', name: 'French (fr)' },
      ],
    },
    // The reference server's public role could not list internal notes.
    canRead: (uid) => uid !== 'api::internal-note.internal-note',
  };
}

/** The parser call a REST path stands for, or undefined for routes that take no content query. */
function parserFor(path: string): ((query: string) => unknown) | undefined {
  const segments = path.replace(/^\/api\//, '').split('/');
  const [first = '', second] = segments;
  if (first === 'i18n') return undefined;
  if (first === 'upload') {
    if (second !== 'files') return undefined;
    const ctx = context(uploadFileSchema);
    return segments.length > 2 ? (q) => parseReadQuery(parseQueryString(q), ctx) : (q) => parseListQuery(parseQueryString(q), ctx);
  }
  const schema = Object.values(model.contentTypes).find((type) => type.pluralName === first || type.singularName === first);
  if (schema === undefined) throw new Error(`no content type for ${path}`);
  const ctx = context(schema);
  const list = schema.kind === 'collectionType' && segments.length === 1;
  return list ? (q) => parseListQuery(parseQueryString(q), ctx) : (q) => parseReadQuery(parseQueryString(q), ctx);
}

function errorBody(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    if (error instanceof HttpError) return JSON.parse(JSON.stringify(error.toBody()));
    throw error;
  }
  throw new Error('expected the parser to throw');
}

interface ErrorCase {
  readonly name: string;
  readonly path: string;
  readonly query: string;
  readonly error: { status: number; name: string; message: string; details: Record<string, unknown> };
}

const query = (key: string, path: string | null, param: string) => ({ key, path, source: 'query', param });

/** Every 400 of the recorded REST cases, as Strapi 5.54 answered it. */
const GOLDEN_400: readonly ErrorCase[] = [
  {
    name: 'rest-fields-password',
    path: '/api/products',
    query: 'fields[0]=secret',
    error: { status: 400, name: 'ValidationError', message: 'Invalid key secret', details: query('secret', 'secret', 'fields') },
  },
  {
    name: 'rest-filter-password-field',
    path: '/api/products',
    query: 'filters[secret][$eq]=x',
    error: { status: 400, name: 'ValidationError', message: 'Invalid key secret', details: query('secret', 'secret', 'filters') },
  },
  {
    name: 'rest-pagination-invalid-page',
    path: '/api/tags',
    query: 'pagination[page]=abc&sort=name:asc&fields[0]=name',
    error: { status: 400, name: 'ValidationError', message: 'convertStartQueryParams expected a positive integer got NaN', details: {} },
  },
  {
    name: 'rest-pagination-root-level-params',
    path: '/api/tags',
    query: 'page=2&pageSize=5&sort=name:asc&fields[0]=name',
    error: {
      status: 400,
      name: 'PaginationError',
      message: 'Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object',
      details: {},
    },
  },
  {
    name: 'rest-populate-dz-on-unknown-component',
    path: '/api/articles',
    query: 'populate[blocks][on][shared.nope][populate]=*&filters[slug]=hello-world',
    error: {
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key shared.nope at blocks.on.shared.nope',
      details: query('shared.nope', 'blocks.on.shared.nope', 'populate'),
    },
  },
  {
    name: 'rest-populate-dz-populate-object-without-on',
    path: '/api/articles',
    query: 'populate[blocks][populate][file]=true&filters[slug]=hello-world&fields[0]=slug',
    error: { status: 400, name: 'ValidationError', message: 'Invalid key populate at blocks', details: query('populate', 'blocks', 'populate') },
  },
  {
    name: 'rest-populate-invalid-fields-in-populate',
    path: '/api/articles',
    query: 'populate[author][fields][0]=nope',
    error: { status: 400, name: 'ValidationError', message: 'Invalid key nope', details: query('nope', null, 'populate') },
  },
  {
    name: 'rest-populate-invalid-key',
    path: '/api/articles',
    query: 'populate=nope',
    error: { status: 400, name: 'ValidationError', message: 'Invalid key nope', details: query('nope', 'nope', 'populate') },
  },
  {
    name: 'rest-populate-scalar-field',
    path: '/api/articles',
    query: 'populate=title',
    error: { status: 400, name: 'ValidationError', message: 'Invalid key title', details: query('title', 'title', 'populate') },
  },
  {
    name: 'rest-sort-invalid-key',
    path: '/api/articles',
    query: 'sort=nope:asc',
    error: { status: 400, name: 'ValidationError', message: 'Invalid key nope', details: query('nope', null, 'sort') },
  },
];

/** Errors the conformance README describes without a recorded case. */
const README_400: readonly ErrorCase[] = [
  {
    name: 'a * below the root (relation)',
    path: '/api/articles',
    query: 'populate[author]=*',
    error: { status: 400, name: 'ValidationError', message: 'Invalid key avatar at author.avatar', details: { key: 'avatar', path: 'author.avatar' } },
  },
  {
    name: 'a * below the root (dynamic zone component)',
    path: '/api/articles',
    query: 'populate[blocks][on][shared.media]=*',
    error: { status: 400, name: 'ValidationError', message: 'Invalid key file at blocks.file', details: { key: 'file', path: 'blocks.file' } },
  },
  {
    name: 'an unknown operator',
    path: '/api/articles',
    query: 'filters[title][$foo]=x',
    error: { status: 400, name: 'ValidationError', message: 'Invalid key $foo at title', details: query('$foo', 'title', 'filters') },
  },
  {
    name: 'page and offset pagination mixed',
    path: '/api/tags',
    query: 'pagination[page]=1&pagination[limit]=5',
    error: { status: 400, name: 'PaginationError', message: 'Cannot use both page & offset pagination in the same query', details: {} },
  },
  {
    name: 'a dynamic zone in filters',
    path: '/api/articles',
    query: 'filters[blocks][id][$eq]=1',
    error: { status: 400, name: 'ValidationError', message: 'Invalid key blocks', details: query('blocks', 'blocks', 'filters') },
  },
  {
    name: 'a relation in fields',
    path: '/api/articles',
    query: 'fields[0]=author',
    error: { status: 400, name: 'ValidationError', message: 'Invalid key author', details: query('author', 'author', 'fields') },
  },
  {
    name: 'createdBy in populate',
    path: '/api/articles',
    query: 'populate[0]=createdBy',
    error: { status: 400, name: 'ValidationError', message: 'Invalid key createdBy', details: query('createdBy', 'createdBy', 'populate') },
  },
];

describe('recorded REST 400s, at parser level', () => {
  for (const golden of [...GOLDEN_400, ...README_400]) {
    it(`${golden.name}: ${golden.query}`, () => {
      const parse = parserFor(golden.path);
      if (parse === undefined) throw new Error(`no parser for ${golden.path}`);
      expect(errorBody(() => parse(golden.query))).toEqual(golden.error);
    });
  }
});

interface GoldenFile {
  readonly name: string;
  readonly kind: string;
  readonly path: string;
  readonly query?: string;
  readonly status: number;
  readonly body: { readonly error?: { readonly name: string } };
}

function goldenFiles(): GoldenFile[] {
  return readdirSync(goldenDir)
    .filter((file) => file.startsWith('rest-') && file.endsWith('.json'))
    .map((file) => JSON.parse(readFileSync(join(goldenDir, file), 'utf8')) as GoldenFile);
}

describe('the recorded golden files themselves', () => {
  it('list no 400 that this file does not reproduce, with the same body', () => {
    const recorded = goldenFiles().filter((golden) => golden.status === 400 && golden.query !== undefined);
    expect(recorded.map((golden) => golden.name).sort()).toEqual(GOLDEN_400.map((golden) => golden.name).sort());
    for (const golden of recorded) {
      const written = GOLDEN_400.find((candidate) => candidate.name === golden.name);
      expect({ query: golden.query, error: golden.body.error }).toEqual({ query: written?.query, error: written?.error });
    }
  });

  it('have every 200 query parse', () => {
    const accepted = goldenFiles().filter((golden) => golden.status === 200 && golden.query !== undefined);
    expect(accepted.length).toBeGreaterThan(50);
    for (const golden of accepted) {
      const parse = parserFor(golden.path.replace(/\{\{[^}]+\}\}/g, 'x'));
      if (parse === undefined) continue;
      expect(() => parse(golden.query ?? ''), golden.name).not.toThrow();
    }
  });
});
