/**
 * The documented port of a real starter's route middleware (strapi/LaunchPad's article-populate,
 * docs/extending.md) against LaunchPad's own schemas, on SQLite and PostgreSQL: the extension
 * compiles with the generated entity types and gives every article read LaunchPad's populate.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capi, grant, scratch, startServer, type RunningServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';
import { request } from './support.ts';

const launchpad = join(repoRoot, 'test', 'fixtures', 'strapi-projects', 'launchpad');
const portSource = readFileSync(join(repoRoot, 'test', 'fixtures', 'extensions', 'launchpad-populate.ts.txt'), 'utf8');

describe.each(clients)('the LaunchPad port on %s', (database) => {
  const space = scratch(`starter-port-${database}`);
  let pg: TestDatabase | undefined;
  let server: RunningServer;

  beforeAll(async () => {
    pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_starter_port');
    const project = join(space.dir, 'api');
    const first = await capi(['generate', '--content-types', launchpad, '--out', project, '--database', database, '--skip-build', '--quiet']);
    if (first.code !== 0) throw new Error(first.stderr);
    writeFileSync(join(project, 'src', 'extensions', 'index.ts'), portSource);
    grant(
      project,
      'public',
      ['api::article.article', 'api::category.category', 'api::product.product'].flatMap((uid) => [`${uid}.create`, `${uid}.find`, `${uid}.findOne`]),
    );
    const built = await capi(['generate', '--content-types', launchpad, '--out', project, '--database', database, '--quiet']);
    if (built.code !== 0) throw new Error(built.stderr + built.stdout);
    const url = pg?.url ?? `file:${join(space.dir, 'data.db')}`;
    server = await startServer(project, { DATABASE_URL: url, LOG_LEVEL: 'warn' });
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
    await pg?.drop();
    space.dispose();
  });

  it('is the code docs/extending.md shows', () => {
    const documented = readFileSync(join(repoRoot, 'docs', 'extending.md'), 'utf8');
    expect(documented).toContain(portSource.slice(portSource.indexOf('\n') + 1));
  });

  it("reads every article with LaunchPad's populate, whatever the client asks", async () => {
    const product = await request(server.url, 'POST', '/api/products', { data: { name: 'Rocket', slug: 'rocket' } });
    expect(product.status, JSON.stringify(product.body)).toBe(201);
    const category = await request(server.url, 'POST', '/api/categories', { data: { name: 'News', product: product.body.data.documentId } });
    expect(category.status, JSON.stringify(category.body)).toBe(201);
    const article = await request(server.url, 'POST', '/api/articles', {
      data: {
        title: 'Launch',
        slug: 'launch',
        description: 'About the launch',
        categories: [category.body.data.documentId],
        seo: { metaTitle: 'Launch', metaDescription: 'We launched our rocket, and this is the story of how it went.' },
        dynamic_zone: [],
      },
    });
    expect(article.status, JSON.stringify(article.body)).toBe(201);

    for (const path of ['/api/articles', `/api/articles/${article.body.data.documentId}`, '/api/articles?populate=*']) {
      const read = await request(server.url, 'GET', path);
      expect(read.status, JSON.stringify(read.body)).toBe(200);
      const entry = Array.isArray(read.body.data) ? read.body.data[0] : read.body.data;
      expect(entry).toMatchObject({
        title: 'Launch',
        image: null,
        localizations: [],
        dynamic_zone: [],
        seo: { metaTitle: 'Launch', metaImage: null },
        categories: [{ name: 'News', product: { name: 'Rocket' }, articles: [{ title: 'Launch', dynamic_zone: [] }] }],
      });
    }
  });
});
