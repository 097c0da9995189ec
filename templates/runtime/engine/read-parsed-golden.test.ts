/**
 * The REST query parser and the read engine together against Strapi 5's recorded answers: every
 * recorded GET of a content type that Strapi answered with 200, its query string parsed by
 * query/params.ts as the REST layer does and read by the engine, equals Strapi's `data` after
 * the conformance normalization. (The hand-written queries of read-golden.test.ts pin the
 * engine alone; this file catches disagreements between what the parser emits and what the
 * engine expects.) Both databases.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import { conformanceDir } from '../../../test/support/fixtures.ts';
import { parseListQuery, parseQueryString, parseReadQuery, type QueryContext } from '../query/params.ts';
import type { ContentTypeSchema } from '../schema.ts';
import { createReadEngine } from './read.ts';
import { normalizeLikeConformance, seedConformance, type Seeded } from './test-seed.ts';
import type { ReadEngine } from './types.ts';

interface RecordedCase {
  readonly name: string;
  readonly kind: string;
  readonly method: string;
  readonly path: string;
  readonly query?: string;
}

interface Recorded {
  readonly status: number;
  readonly body: { readonly data?: unknown; readonly meta?: { readonly pagination?: { readonly total?: number } } };
}

/** Strapi 5.54 returns one item for `limit=-1`; the conformance README lets capi differ. */
const allowedDifferences = new Set(['rest-pagination-limit-minus-one']);

const recorded = (JSON.parse(readFileSync(resolve(conformanceDir, 'cases.json'), 'utf8')) as RecordedCase[]).filter(
  (c) => c.kind === 'rest' && c.method === 'GET' && c.path.startsWith('/api/') && !c.path.startsWith('/api/upload') && !c.path.startsWith('/api/i18n') && !allowedDifferences.has(c.name),
);

function answer(name: string): Recorded {
  return JSON.parse(readFileSync(resolve(conformanceDir, 'golden', `${name}.json`), 'utf8')) as Recorded;
}

describe.each(clients)('REST parser + read engine vs Strapi 5 on %s', (client) => {
  let ex: ExampleDatabase;
  let engine: ReadEngine;
  let seeded: Seeded;

  beforeAll(async () => {
    ex = await openExampleDatabase(client);
    seeded = (await seedConformance(ex.db, ex.model)).seeded();
    engine = createReadEngine({ db: ex.db, model: ex.model });
  });
  afterAll(async () => ex?.close());

  function context(schema: ContentTypeSchema): QueryContext {
    return {
      schema,
      model: ex.model,
      rest: { defaultLimit: 25, maxLimit: 100, withCount: true },
      i18n: {
        defaultLocale: 'en',
        locales: [
          { code: 'en', name: 'English (en)' },
          { code: 'fr', name: 'French (fr)' },
        ],
      },
    };
  }

  it.each(recorded.filter((c) => answer(c.name).status === 200))('$name', async (c) => {
    const [, plural = '', param] = /^\/api\/([^/]+)(?:\/(.+))?$/.exec(c.path) ?? [];
    const schema = Object.values(ex.model.contentTypes).find((t) => t.pluralName === plural || (t.kind === 'singleType' && t.singularName === plural));
    expect(schema, c.path).toBeDefined();
    const raw = parseQueryString(c.query ?? '');
    const expected = answer(c.name).body;
    if (param !== undefined) {
      const documentId = param.replace(/^\{\{doc:(.+)\}\}$/, (_, label: string) => seeded.doc[label] ?? label);
      const entity = await engine.findOne(schema!.uid, documentId, parseReadQuery(raw, context(schema!)));
      expect(normalizeLikeConformance(entity, seeded)).toEqual(expected.data);
    } else if (schema!.kind === 'singleType') {
      const entity = await engine.findSingle(schema!.uid, parseReadQuery(raw, context(schema!)));
      expect(normalizeLikeConformance(entity, seeded)).toEqual(expected.data);
    } else {
      const result = await engine.findMany(schema!.uid, parseListQuery(raw, context(schema!)));
      expect(normalizeLikeConformance(result.results, seeded)).toEqual(expected.data);
      expect(result.total).toEqual(expected.meta?.pagination?.total);
    }
  });
});
