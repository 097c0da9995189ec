/**
 * Real public Strapi 5 projects (test/fixtures/strapi-projects/<name>, each with its SOURCE.md),
 * pointed at as a user would point capi at their own: the schema files unedited validate,
 * generate a project that compiles, and that project starts on SQLite and PostgreSQL and answers
 * every content type's routes, REST and GraphQL.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capi, enableIntrospection, grant, scratch, startServer, type RunningServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { createTestDatabase, type TestDatabase } from '../support/postgres.ts';

const PROJECTS = join(repoRoot, 'test', 'fixtures', 'strapi-projects');
const NAMES = readdirSync(PROJECTS).sort();

interface TypeRoute {
  readonly uid: string;
  readonly kind: 'collectionType' | 'singleType';
  readonly singularName: string;
  readonly pluralName: string;
}

/** The content types of a project, read from its schema files. */
function routesOf(project: string): TypeRoute[] {
  const api = join(project, 'src', 'api');
  return readdirSync(api).flatMap((folder) => {
    const types = join(api, folder, 'content-types');
    return readdirSync(types).map((name) => {
      const schema = JSON.parse(readFileSync(join(types, name, 'schema.json'), 'utf8')) as { kind: TypeRoute['kind']; info: TypeRoute };
      return { uid: `api::${folder}.${name}`, kind: schema.kind, singularName: schema.info.singularName, pluralName: schema.info.pluralName };
    });
  });
}

describe('real Strapi 5 projects', () => {
  it('are at least three, each naming its source', () => {
    expect(NAMES.length).toBeGreaterThanOrEqual(3);
    for (const name of NAMES) expect(readFileSync(join(PROJECTS, name, 'SOURCE.md'), 'utf8')).toMatch(/Commit: [0-9a-f]{40}/);
  });

  it.each(NAMES)('%s validates unedited', async (name) => {
    const result = await capi(['validate', '--content-types', join(PROJECTS, name)]);
    expect(result.stderr + result.stdout).toContain('content types are valid');
    expect(result.code).toBe(0);
  });
});

describe.each(NAMES.flatMap((name) => [[name, 'sqlite'] as const, [name, 'postgres'] as const]))('%s on %s', (name, client) => {
  const space = scratch(`strapi-${name}-${client}`);
  const out = join(space.dir, 'out');
  const routes = routesOf(join(PROJECTS, name));
  let database: TestDatabase | undefined;
  let server: RunningServer | undefined;
  let generated = { code: -1, stderr: '' };

  beforeAll(async () => {
    database = client === 'postgres' ? await createTestDatabase('capi_strapi_project') : undefined;
    generated = await capi(['generate', '--content-types', join(PROJECTS, name), '--out', out, '--database', client]);
    if (generated.code !== 0) return;
    const url = database?.url ?? `file:${join(space.dir, 'data.db')}`;
    enableIntrospection(out);
    // A new project opens no content: anyone may read every type here, as a site's front end would.
    grant(
      out,
      'public',
      routes.flatMap((route) => (route.kind === 'singleType' ? [`${route.uid}.find`] : [`${route.uid}.find`, `${route.uid}.findOne`])),
    );
    server = await startServer(out, { DATABASE_URL: url, NODE_ENV: 'production', LOG_LEVEL: 'error' });
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    space.dispose();
  });

  it('generates a project that compiles', () => {
    expect(generated.stderr).toContain('tsc, strict, 0 errors');
    expect(generated.code).toBe(0);
  });

  it('answers a GET on every collection type, with and without populate=*', async () => {
    for (const route of routes.filter((r) => r.kind === 'collectionType')) {
      for (const query of ['', '?populate=*']) {
        const response = await fetch(`${server?.url}/api/${route.pluralName}${query}`);
        expect(response.status, `${route.pluralName}${query}`).toBe(200);
        expect(await response.json()).toEqual({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
      }
    }
  });

  it('answers a GET on every single type with Not Found while it is empty, as Strapi does', async () => {
    for (const route of routes.filter((r) => r.kind === 'singleType')) {
      const response = await fetch(`${server?.url}/api/${route.singularName}?populate=*`);
      expect(response.status, route.singularName).toBe(404);
      expect(((await response.json()) as { error: { name: string } }).error.name).toBe('NotFoundError');
    }
  });

  it('serves the GraphQL schema', async () => {
    const response = await fetch(`${server?.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __schema { queryType { fields { name } } } }' }),
    });
    expect(response.status).toBe(200);
    const fields = ((await response.json()) as { data: { __schema: { queryType: { fields: { name: string }[] } } } }).data.__schema.queryType.fields.map((f) => f.name);
    expect(fields.length).toBeGreaterThan(routes.length);
  });

  // LaunchPad's front end builds its pages from this kind of query: every dynamic-zone component,
  // their components and relations, lists of 100. By capi's old cost estimate it is worth over a
  // hundred million; Strapi serves it, and so must capi by default (only depth is limited).
  if (name === 'launchpad') {
    it("accepts a deep page-builder query by default, and refuses past depthLimit with Strapi's message", async () => {
      const post = async (query: string) => {
        const response = await fetch(`${server?.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables: { slug: 'home' } }) });
        return { status: response.status, body: (await response.json()) as { data?: unknown; errors?: { message: string }[] } };
      };
      const accepted = await post(PAGE_BUILDER_QUERY);
      expect(accepted).toEqual({ status: 200, body: { data: { pages: [] } } });
      const deeper = PAGE_BUILDER_QUERY.replace('plans(pagination: { pageSize: 100 }) { name perks { text } }', 'plans { product { plans { product { plans { product { plans { name } } } } } } }');
      const refused = await post(deeper);
      expect(refused.status).toBe(400);
      expect(refused.body.errors?.[0]?.message).toBe("'Page' exceeds maximum operation depth of 10");
    });
  }
});

const PAGE_BUILDER_QUERY = /* GraphQL */ `
  query Page($slug: String!, $locale: I18NLocaleCode) {
    pages(filters: { slug: { eq: $slug } }, locale: $locale, pagination: { pageSize: 100 }) {
      documentId
      slug
      locale
      seo { metaTitle metaDescription metaImage { url alternativeText width height } keywords structuredData }
      dynamic_zone {
        __typename
        ... on ComponentDynamicZoneHero { heading sub_heading CTAs { text URL target variant } }
        ... on ComponentDynamicZoneFeatures { heading sub_heading graph_card { title top_items { number text } span } }
        ... on ComponentDynamicZoneTestimonials { heading testimonials(pagination: { pageSize: 100 }) { text user { firstname lastname job image { url } } } }
        ... on ComponentDynamicZonePricing {
          heading
          plans(pagination: { pageSize: 100 }) {
            name price perks { text } additional_perks { text } CTA { text URL }
            product { name slug images(pagination: { pageSize: 100 }) { url } plans(pagination: { pageSize: 100 }) { name perks { text } } }
          }
        }
        ... on ComponentDynamicZoneLaunches { heading launches { mission_number title description } }
        ... on ComponentDynamicZoneCta { heading CTAs { text URL variant } }
        ... on ComponentDynamicZoneFaq { heading faqs(pagination: { pageSize: 100 }) { question answer } }
      }
    }
  }
`;
