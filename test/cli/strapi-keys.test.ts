/**
 * A Strapi project using every key of issue 8 (test/fixtures/strapi-keys), generated and served on
 * every database: what capi lists as not brought over, custom fields stored and answered as
 * their stored type, private relations, media, components and dynamic zones hidden from every
 * response, filter, sort, populate and GraphQL type, enumeration values renamed in GraphQL only,
 * and a `status` attribute on a type without draft & publish.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capi, enableIntrospection, grant, scratch, startServer, type RunningServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';

const PROJECT = join(repoRoot, 'test', 'fixtures', 'strapi-keys');
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Answer {
  readonly status: number;
  readonly body: any;
}

describe.each(clients)('a Strapi project using every key, on %s', (client) => {
  const space = scratch(`strapi-keys-${client}`);
  const out = join(space.dir, 'out');
  let database: TestDatabase | undefined;
  let server: RunningServer;
  let generated = { code: -1, stderr: '' };
  const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: response.status === 204 ? null : await response.json() };
  };
  const gql = (query: string, variables?: Record<string, unknown>): Promise<Answer> => call('POST', '/graphql', { query, variables });

  beforeAll(async () => {
    database = client === 'sqlite' ? undefined : await createServerDatabase(client, 'capi_strapi_keys');
    generated = await capi(['generate', '--content-types', PROJECT, '--out', out, '--database', client]);
    if (generated.code !== 0) throw new Error(generated.stderr);
    // The public role reads and writes both types, so that the test needs no token.
    grant(
      out,
      'public',
      ['article', 'tag'].flatMap((name) => ['find', 'findOne', 'create'].map((action) => `api::${name}.${name}.${action}`)),
    );
    enableIntrospection(out);
    server = await startServer(out, { DATABASE_URL: database?.url ?? `file:${join(space.dir, 'data.db')}`, NODE_ENV: 'production', LOG_LEVEL: 'error' });
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    space.dispose();
  });

  it('lists what it does not bring over, and leaves out the unknown relation target with a note', () => {
    const notes = generated.stderr.split('\n').filter((line) => /^ {2}(note|warning): /.test(line));
    expect(notes).toEqual([
      '  warning: api/article/content-types/article/schema.json #/attributes/pin: custom field plugin::acme-maps.pin is unknown to capi: served as json; map it to its stored type under "customFields" in capi.config.json',
      '  note: api/article/content-types/article/schema.json #/attributes/related: polymorphic relation "related" (morphToMany) is not served (see docs/moving-from-strapi.md)',
      "  note: src/api/article/routes/article.js: custom routes: port to src/extensions/index.ts: contentTypes['api::article.article'].routes (route config: .config.<action>)",
      '  note: src/index.js: src/index lifecycle code: port to src/extensions/index.ts: register / bootstrap (strapi.documents.use: documents)',
      '  note: config/plugins.js: plugin configuration: copy the values capi has to config/plugins.json; see docs/moving-from-strapi.md',
    ]);
  });

  const tags: string[] = [];
  let article = '';

  it('stores custom fields as their stored type, and hides private attributes of every kind from the response', async () => {
    for (const [name, status] of [
      ['news', 'active'],
      ['old', 'archived'],
    ]) {
      const created = await call('POST', '/api/tags', { data: { name, status } });
      expect(created.status).toBe(201);
      expect(created.body.data).toMatchObject({ name, status });
      tags.push(created.body.data.documentId);
    }
    const created = await call('POST', '/api/articles', {
      data: {
        title: 'Every key',
        internal: 'not for the public',
        secret: 'hunter2',
        color: '#ff0000',
        choices: ['red', 'blue'],
        body: '<p>Rich <strong>text</strong></p>',
        pin: { lat: 48.85, lng: 2.35 },
        kind: '3d',
        labels: [tags[0]],
        hiddenTags: [tags[1]],
        seo: { metaTitle: 'private component' },
        blocks: [{ __component: 'shared.seo', metaTitle: 'private zone' }],
        card: { metaTitle: 'public component' },
      },
    });
    expect(created.status).toBe(201);
    article = created.body.data.documentId;
    const read = await call('GET', `/api/articles/${article}?populate=*`);
    expect(read.status).toBe(200);
    const { id: _id, documentId: _documentId, createdAt: _c, updatedAt: _u, publishedAt: _p, ...rest } = read.body.data;
    expect(rest).toEqual({
      title: 'Every key',
      color: '#ff0000',
      choices: ['red', 'blue'],
      body: '<p>Rich <strong>text</strong></p>',
      pin: { lat: 48.85, lng: 2.35 },
      uuid: expect.stringMatching(UUID_V4),
      grade: 'unrated',
      kind: '3d',
      labels: [expect.objectContaining({ name: 'news', status: 'active' })],
      card: { id: expect.any(Number), metaTitle: 'public component' },
    });
  });

  it("fills strapi-advanced-uuid's UUID on create unless given, and serves custom fields as their mapped type (capi.config.json too), String in GraphQL as in Strapi", async () => {
    const [first, second] = [await call('POST', '/api/articles', { data: { title: 'Id one' } }), await call('POST', '/api/articles', { data: { title: 'Id two', uuid: '' } })];
    expect(first.body.data.uuid).toMatch(UUID_V4);
    expect(second.body.data.uuid).toMatch(UUID_V4);
    expect(second.body.data.uuid).not.toBe(first.body.data.uuid);
    const given = await call('POST', '/api/articles', { data: { title: 'Id given', uuid: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed', grade: 'A' } });
    expect(given.body.data).toMatchObject({ uuid: '1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed', grade: 'A' });
    const type = await gql('{ __type(name: "Article") { fields { name type { name } } } }');
    const typeOf = Object.fromEntries(type.body.data.__type.fields.map((f: { name: string; type: { name: string } }) => [f.name, f.type.name]));
    expect([typeOf['uuid'], typeOf['grade'], typeOf['color'], typeOf['pin']]).toEqual(['String', 'String', 'String', 'JSON']);
  });

  it('validates a custom field as its stored type', async () => {
    const wrong = await call('POST', '/api/articles', { data: { title: 'Bad color', color: 42 } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.name).toBe('ValidationError');
  });

  it.each([
    ['populate[hiddenTags]=true', 'hiddenTags'],
    ['populate[cover]=true', 'cover'],
    ['populate[seo]=true', 'seo'],
    ['populate[blocks]=*', 'blocks'],
    ['filters[hiddenTags][name][$eq]=old', 'hiddenTags'],
    ['filters[internal][$eq]=x', 'internal'],
    ['filters[seo][metaTitle][$eq]=x', 'seo'],
    ['sort=hiddenTags.name', 'hiddenTags'],
    ['sort=internal', 'internal'],
    ['fields[0]=internal', 'internal'],
  ])('refuses the private attribute in %s with Invalid key', async (query, key) => {
    const response = await call('GET', `/api/articles?${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ data: null, error: { status: 400, name: 'ValidationError' } });
    expect(response.body.error.message).toContain(`Invalid key ${key}`);
  });

  it('finds a tag by its status attribute, which is no publication state without draft & publish', async () => {
    const response = await call('GET', '/api/tags?filters[status][$eq]=archived&fields[0]=name&fields[1]=status');
    expect(response.status).toBe(200);
    expect(response.body.data.map((t: { name: string; status: string }) => [t.name, t.status])).toEqual([['old', 'archived']]);
  });

  it('serves GraphQL without the private attributes, with custom fields as their stored type and enum values renamed', async () => {
    const read = await gql(`{ article(documentId: "${article}") { title color choices body kind secret labels { name status } card { metaTitle } } }`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      data: {
        article: {
          title: 'Every key',
          color: '#ff0000',
          choices: ['red', 'blue'],
          body: '<p>Rich <strong>text</strong></p>',
          kind: '_3d',
          secret: null,
          labels: [{ name: 'news', status: 'active' }],
          card: { metaTitle: 'public component' },
        },
      },
    });
    for (const field of ['internal', 'hiddenTags { name }', 'cover { url }', 'seo { metaTitle }', 'blocks { __typename }']) {
      const refused = await gql(`{ articles { ${field} } }`);
      expect(refused.status, field).toBe(400);
      expect(refused.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    }
  });

  it('maps renamed enum values both ways: GraphQL names in, values as written in REST and storage', async () => {
    const created = await gql('mutation { createArticle(data: { title: "Local time", kind: datetime_local }) { documentId kind } }');
    expect(created.body.errors).toBeUndefined();
    expect(created.body.data.createArticle.kind).toBe('datetime_local');
    const rest = await call('GET', `/api/articles/${created.body.data.createArticle.documentId}?fields[0]=kind`);
    expect(rest.body.data.kind).toBe('datetime-local');
    const spaced = await call('POST', '/api/articles', { data: { title: 'Spaced', kind: 'a b' } });
    expect(spaced.status).toBe(201);
    const listed = await gql('{ articles(sort: "title", filters: { kind: { in: ["a b", "3d"] } }) { title kind } }');
    expect(listed.body).toEqual({
      data: {
        articles: [
          { title: 'Every key', kind: '_3d' },
          { title: 'Spaced', kind: 'a_b' },
        ],
      },
    });
    // The schema sets enumName: Strapi names the enum after it.
    const enumType = await gql('{ __type(name: "article_kind") { enumValues { name } } }');
    expect(enumType.body.data.__type.enumValues.map((v: { name: string }) => v.name)).toEqual(['datetime_local', '_3d', 'a_b', 'post']);
  });
});
