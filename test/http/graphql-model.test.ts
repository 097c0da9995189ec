/**
 * GraphQL end to end for a model unlike the conformance one, on SQLite and PostgreSQL: enum
 * values whose GraphQL names differ from the stored values (in typed inputs, in dynamic-zone
 * JSON, in filters and in answers), a localized single type with draft & publish written and
 * deleted per locale, and a type without draft & publish. Generated, compiled and served as a
 * user would.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownActions } from '../../templates/runtime/permissions.ts';
import { capi, startServer, type RunningServer } from '../support/cli.ts';
import { loadModelFrom, repoRoot } from '../support/model.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';
import { request } from './support.ts';

const contentTypes: Record<string, unknown> = {
  'site-setting.json': {
    kind: 'singleType',
    collectionName: 'site_settings',
    info: { singularName: 'site-setting', pluralName: 'site-settings', displayName: 'Site setting' },
    options: { draftAndPublish: true },
    pluginOptions: { i18n: { localized: true } },
    attributes: {
      headline: { type: 'string', pluginOptions: { i18n: { localized: true } } },
      mood: { type: 'enumeration', enum: ['x__large', 'Mixed_Case', 'snake_case_'] },
      blocks: { type: 'dynamiczone', components: ['doc.note'], pluginOptions: { i18n: { localized: true } } },
    },
  },
  'memo.json': {
    kind: 'collectionType',
    collectionName: 'memos',
    info: { singularName: 'memo', pluralName: 'memos', displayName: 'Memo' },
    options: { draftAndPublish: false },
    attributes: {
      body: { type: 'text' },
      level: { type: 'enumeration', enum: ['low__x', 'high'] },
      notes: { type: 'component', component: 'doc.note', repeatable: true },
    },
  },
  'components/doc/note.json': {
    collectionName: 'components_doc_notes',
    info: { displayName: 'Note' },
    attributes: { title: { type: 'string' }, tone: { type: 'enumeration', enum: ['so__so', 'calm'] } },
  },
};

describe.each(clients)('GraphQL of another model on %s', (database) => {
  const workDir = join(repoRoot, 'tmp', `graphql-model-${database}-${process.pid}`);
  let pg: TestDatabase | undefined;
  let server: RunningServer;
  const gql = async (query: string): Promise<any> => {
    const response = await request(server.url, 'POST', '/graphql', { query });
    expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
    return response.body.data;
  };

  beforeAll(async () => {
    const types = join(workDir, 'content-types');
    for (const [path, json] of Object.entries(contentTypes)) {
      mkdirSync(dirname(join(types, path)), { recursive: true });
      writeFileSync(join(types, path), JSON.stringify(json, null, 2));
    }
    const project = join(workDir, 'project');
    const generated = await capi(['generate', '--content-types', types, '--out', project, '--database', database, '--quiet']);
    if (generated.code !== 0) throw new Error(generated.stderr);
    const actions = knownActions(loadModelFrom(types));
    writeFileSync(join(project, 'config', 'permissions.json'), JSON.stringify({ public: actions, authenticated: actions }));
    writeFileSync(join(project, 'config', 'plugins.json'), JSON.stringify({ i18n: { defaultLocale: 'en', locales: ['en', 'fr'] } }));
    pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_graphql_model');
    server = await startServer(project, { DATABASE_URL: pg?.url ?? `file:${join(workDir, 'data.db')}`, LOG_LEVEL: 'warn' });
  });

  afterAll(async () => {
    await server?.stop();
    await pg?.drop();
  });

  it('writes enum names as stored values and answers names, typed and inside components', async () => {
    const { createMemo } = await gql('mutation { createMemo(data: { body: "b", level: low_x, notes: [{ title: "n", tone: so_so }] }) { documentId level notes { tone } publishedAt } }');
    expect(createMemo).toMatchObject({ level: 'low_x', notes: [{ tone: 'so_so' }] });
    expect(createMemo.publishedAt).not.toBeNull();
    const rest = await request(server.url, 'GET', `/api/memos/${createMemo.documentId}?populate=notes`);
    expect(rest.body.data).toMatchObject({ level: 'low__x', notes: [{ tone: 'so__so' }] });
  });

  it('filters enumerations by GraphQL name or by stored value', async () => {
    expect((await gql('{ memos(filters: { level: { eq: "low_x" } }) { body } }')).memos).toEqual([{ body: 'b' }]);
    expect((await gql('{ memos(filters: { level: { in: ["low__x"] } }) { body } }')).memos).toEqual([{ body: 'b' }]);
    expect((await gql('{ memos(filters: { notes: { tone: { eq: "so_so" } } }) { body } }')).memos).toEqual([{ body: 'b' }]);
    expect((await gql('{ memos(filters: { level: { eq: "high" } }) { body } }')).memos).toEqual([]);
  });

  it('writes a localized single type per locale and status, zone entries named by __typename', async () => {
    const { updateSiteSetting } = await gql(`mutation { updateSiteSetting(locale: "fr", status: DRAFT, data: {
      headline: "Bonjour", mood: snake_case, blocks: [{ __typename: "ComponentDocNote", title: "t", tone: "so_so" }]
    }) { headline mood locale publishedAt blocks { __typename ... on ComponentDocNote { title tone } } } }`);
    expect(updateSiteSetting).toEqual({ headline: 'Bonjour', mood: 'snake_case', locale: 'fr', publishedAt: null, blocks: [{ __typename: 'ComponentDocNote', title: 't', tone: 'so_so' }] });
    expect(await gql('{ en: siteSetting(status: DRAFT) { headline } fr: siteSetting(locale: "fr") { headline } draft: siteSetting(locale: "fr", status: DRAFT) { headline mood } }')).toEqual({
      en: null,
      fr: null,
      draft: { headline: 'Bonjour', mood: 'snake_case' },
    });
    await gql('mutation { updateSiteSetting(data: { headline: "Hello", mood: x_large }) { headline } }');
    const { deleteSiteSetting } = await gql('mutation { deleteSiteSetting(locale: "fr") { documentId } }');
    expect(deleteSiteSetting.documentId).toMatch(/^[a-z][a-z0-9]{23}$/);
    expect(await gql('{ en: siteSetting { headline mood } fr: siteSetting(locale: "fr", status: DRAFT) { headline } }')).toEqual({
      en: { headline: 'Hello', mood: 'x_large' },
      fr: null,
    });
  });
});
