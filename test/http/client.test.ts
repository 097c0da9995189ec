/**
 * The generated client package against a generated server, on SQLite and PostgreSQL: the client
 * is imported from the project's compiled client/dist (what a front end installs), and every
 * manager is exercised: collection CRUD with populate/fields/filters/sort/pagination, a single
 * type, the media library, sign-in, and errors as CapiError values carrying Strapi's envelope.
 * The example front end (examples/) is built against that package and run against the server.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareProject, startReferenceServer, type HarnessOptions } from '../conformance/harness.ts';
import type { RunningServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';
import { buildExample } from '../client/example.ts';

type ClientModule = typeof import('../../generated/client/src/index.ts');

const run = promisify(execFile);
const SECRET = 'client-test-jwt-secret';
const UP = 'plugin::users-permissions';

function permissions(): Record<string, string[]> {
  const content = ['article', 'author', 'tag', 'category', 'product'].flatMap((t) => ['find', 'findOne', 'create', 'update', 'delete'].map((a) => `api::${t}.${t}.${a}`));
  const single = ['find', 'update', 'delete'].map((a) => `api::global.global.${a}`);
  const upload = ['find', 'findOne', 'upload', 'destroy'].map((a) => `plugin::upload.content-api.${a}`);
  const auth = ['callback', 'register', 'forgotPassword'].map((a) => `${UP}.auth.${a}`);
  return {
    // The public role reads; writes need a signed-in user, which makes auth observable.
    public: [...content.filter((a) => /\.(find|findOne)$/.test(a)), 'api::global.global.find', ...auth, 'plugin::upload.content-api.find'],
    authenticated: [...content, ...single, ...upload, `${UP}.user.me`],
  };
}

describe.each(clients)('the generated client on %s', (database) => {
  let pg: TestDatabase | undefined;
  let server: RunningServer;
  let project: string;
  let api: ClientModule;
  let jwt: string;
  const workDir = join(repoRoot, 'tmp', `client-${database}-${process.pid}`);

  beforeAll(async () => {
    pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_client');
    const options: HarnessOptions = { database, workDir, ...(pg ? { databaseUrl: pg.url } : {}) };
    project = await prepareProject(options);
    writeFileSync(join(project, 'config', 'permissions.json'), JSON.stringify(permissions()));
    server = await startReferenceServer(project, options, { JWT_SECRET: SECRET });
    api = (await import(join(project, 'client', 'dist', 'index.js'))) as ClientModule;
    const signedUp = await api.createClient({ baseURL: `${server.url}/api` }).auth.register({ username: 'ada', email: 'ada@example.com', password: 'lovelace1' });
    jwt = signedUp.jwt ?? '';
  });

  afterAll(async () => {
    await server?.stop();
    await pg?.drop();
  });

  const signedIn = () => api.createClient({ baseURL: `${server.url}/api`, auth: { jwt } });
  const anonymous = () => api.createClient({ baseURL: `${server.url}/api` });

  it('creates, reads, updates and deletes documents, with populate, fields, filters, sort and pagination', async () => {
    const client = signedIn();
    const author = (await client.collection('authors').create({ name: 'Ada', email: 'ada@example.com' })).data;
    const tags = await Promise.all(['alpha', 'beta'].map(async (name) => (await client.collection('tags').create({ name, weight: name.length })).data));
    const created = await client.collection('articles').create(
      {
        title: 'Client one',
        slug: 'client-one',
        readingTime: 4,
        author: author.documentId,
        tags: { connect: tags.map((t) => t.documentId) },
        seo: { metaTitle: 'SEO one', metaDescription: 'About client one' },
      },
      { populate: ['author', 'tags'] },
    );
    expect(created.data.author?.name).toBe('Ada');
    expect(created.data.tags.map((t) => t.name).sort()).toEqual(['alpha', 'beta']);
    expect(created.data).not.toHaveProperty('seo');

    const found = await anonymous()
      .collection('articles')
      .findOne(created.data.documentId, { populate: { seo: true, author: { fields: ['name'] } }, fields: ['title'] });
    expect(found.data).toEqual({
      id: created.data.id,
      documentId: created.data.documentId,
      title: 'Client one',
      seo: { id: expect.any(Number), metaTitle: 'SEO one', metaDescription: 'About client one' },
      author: { id: author.id, documentId: author.documentId, name: 'Ada' },
    });

    await client.collection('articles').create({ title: 'Client two', slug: 'client-two', readingTime: 9 });
    const list = await anonymous()
      .collection('articles')
      .find({
        filters: { title: { $startsWith: 'Client' }, readingTime: { $gte: 1 } },
        sort: 'readingTime:desc',
        fields: ['title', 'readingTime'],
        pagination: { page: 1, pageSize: 1 },
      });
    expect(list.data).toEqual([{ id: expect.any(Number), documentId: expect.any(String), title: 'Client two', readingTime: 9 }]);
    expect(list.meta.pagination).toEqual({ page: 1, pageSize: 1, pageCount: 2, total: 2 });

    const updated = await client.collection('articles').update(created.data.documentId, { readingTime: 5, tags: { disconnect: [tags[0]!.documentId] } }, { populate: 'tags' });
    expect(updated.data.readingTime).toBe(5);
    expect(updated.data.tags.map((t) => t.name)).toEqual(['beta']);

    await expect(client.collection('articles').delete(created.data.documentId)).resolves.toBeUndefined();
    const gone = await anonymous()
      .collection('articles')
      .findOne(created.data.documentId)
      .catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(api.CapiError);
    expect((gone as InstanceType<ClientModule['CapiError']>).envelope).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
  });

  it('answers dynamic-zone fragments as the result types say: listed components as asked, no others', async () => {
    const client = signedIn();
    const { data } = await client.collection('articles').create({
      title: 'Zones',
      slug: 'zones',
      blocks: [
        { __component: 'shared.quote', title: 'Q', body: 'Quoted' },
        { __component: 'shared.rich-text', body: 'Rich' },
      ],
    });
    const read = await anonymous()
      .collection('articles')
      .findOne(data.documentId, { populate: { blocks: { on: { 'shared.quote': { fields: ['body'] } } } }, fields: ['title'] });
    expect(read.data.blocks).toEqual([{ __component: 'shared.quote', id: expect.any(Number), body: 'Quoted' }]);
    const all = await anonymous()
      .collection('articles')
      .findOne(data.documentId, { populate: ['blocks'], fields: ['id'] });
    expect(Object.keys(all.data).sort()).toEqual(['blocks', 'documentId', 'id']);
    expect(all.data.blocks[1]).toEqual({ __component: 'shared.rich-text', id: expect.any(Number), body: 'Rich' });
    // An empty `fields` list is not sent, and the type says so: every scalar is there.
    const empty = await anonymous().collection('articles').findOne(data.documentId, { fields: [] });
    expect(empty.data.title).toBe('Zones');
  });

  it('answers exactly the keys the result types give for populate and fields (as types.check.ts states them)', async () => {
    const client = signedIn();
    const author = (await client.collection('authors').create({ name: 'Keys' })).data;
    const { data } = await client.collection('articles').create({ title: 'Keys', slug: 'keys', author: author.documentId, seo: { metaTitle: 'k', metaDescription: 'k' } });
    const keys = (value: object | null | undefined) => Object.keys(value ?? {}).sort();
    const ids = ['documentId', 'id'];
    const scalars = ['title', 'description', 'slug', 'readingTime', 'featured', 'createdAt', 'updatedAt', 'publishedAt'];
    const populatables = ['cover', 'author', 'category', 'tags', 'featuredProduct', 'blocks', 'seo'];
    const articles = anonymous().collection('articles');

    expect(keys((await articles.findOne(data.documentId)).data)).toEqual([...ids, ...scalars].sort());
    const everything = (await articles.findOne(data.documentId, { populate: '*' })).data;
    expect(keys(everything)).toEqual([...ids, ...scalars, ...populatables].sort());
    expect(keys(everything.author)).toEqual([...ids, 'name', 'email', 'bio', 'createdAt', 'updatedAt', 'publishedAt'].sort());
    expect(keys(everything.seo)).toEqual(['id', 'metaTitle', 'metaDescription'].sort());

    const dotted = (await articles.findOne(data.documentId, { populate: ['author.avatar', 'seo.shareImage', 'category'] })).data;
    expect(keys(dotted)).toEqual([...ids, ...scalars, 'author', 'seo', 'category'].sort());
    expect(keys(dotted.author)).toEqual([...ids, 'name', 'email', 'bio', 'createdAt', 'updatedAt', 'publishedAt', 'avatar'].sort());
    expect(keys(dotted.seo)).toEqual(['id', 'metaTitle', 'metaDescription', 'shareImage'].sort());

    const nested = (await articles.findOne(data.documentId, { populate: { author: { fields: ['name'], populate: { avatar: { fields: ['url'] } } }, tags: true, seo: false }, fields: ['title'] })).data;
    expect(keys(nested)).toEqual([...ids, 'title', 'author', 'tags'].sort());
    expect(keys(nested.author)).toEqual([...ids, 'name', 'avatar'].sort());
    expect(keys((await articles.findOne(data.documentId, { fields: 'title,slug' })).data)).toEqual([...ids, 'title', 'slug'].sort());

    // A zone populated with `populate: '*'` populates each entry's own media and relations.
    await client.collection('articles').update(data.documentId, { blocks: [{ __component: 'shared.media' }, { __component: 'shared.quote', title: 'q', body: 'b' }] });
    const zone = (await articles.findOne(data.documentId, { populate: { blocks: { populate: '*' } }, fields: ['id'] })).data;
    expect(zone.blocks.map(keys)).toEqual([
      ['__component', 'file', 'id'],
      ['__component', 'body', 'id', 'title'],
    ]);
    const shallow = (await articles.findOne(data.documentId, { populate: ['blocks'], fields: ['id'] })).data;
    expect(shallow.blocks.map(keys)).toEqual([
      ['__component', 'id'],
      ['__component', 'body', 'id', 'title'],
    ]);
  });

  it('reads and writes a single type', async () => {
    const client = signedIn();
    const written = await client
      .single('global')
      .update({ siteName: 'Client site', siteDescription: 'Typed', defaultSeo: { metaTitle: 'Home', metaDescription: 'The home page' } }, { populate: ['defaultSeo'] });
    expect(written.data.defaultSeo?.metaTitle).toBe('Home');
    const read = await anonymous()
      .single('global')
      .find({ fields: ['siteName'] });
    expect(read.data).toEqual({ id: written.data.id, documentId: written.data.documentId, siteName: 'Client site' });
    await client.single('global').delete();
    const error = await anonymous()
      .single('global')
      .find()
      .catch((e: unknown) => e);
    expect((error as InstanceType<ClientModule['CapiError']>).status).toBe(404);
  });

  it('uploads, lists, finds, updates and deletes media library files', async () => {
    const client = signedIn();
    const [uploaded] = await client.files.upload(new Blob(['hello from the client'], { type: 'text/plain' }), { fileInfo: { name: 'hello.txt', caption: 'first' } });
    expect(uploaded).toMatchObject({ name: 'hello.txt', caption: 'first', mime: 'text/plain', isUrlSigned: false });
    const [bytes] = await client.files.upload(new TextEncoder().encode('bytes'), { filename: 'bytes.txt', mimetype: 'text/plain' });
    expect(bytes?.name).toBe('bytes.txt');

    const listed = await anonymous().files.find({ filters: { name: { $eq: 'hello.txt' } }, fields: ['name', 'caption'] });
    expect(listed).toEqual([{ id: uploaded!.id, documentId: uploaded!.documentId, name: 'hello.txt', caption: 'first', isUrlSigned: false }]);
    expect((await client.files.findOne(uploaded!.id)).url).toBe(uploaded!.url);

    const renamed = await client.files.update(uploaded!.id, { alternativeText: 'greeting' });
    expect(renamed.alternativeText).toBe('greeting');
    expect((await client.files.delete(uploaded!.id)).id).toBe(uploaded!.id);
    const missing = await client.files.findOne(uploaded!.id).catch((e: unknown) => e);
    expect((missing as InstanceType<ClientModule['CapiError']>).envelope.error.name).toBe('NotFoundError');
    // Uploading is for signed-in users only here: the public role gets Strapi's 403.
    const refused = await anonymous()
      .files.upload(new Blob(['x'], { type: 'text/plain' }))
      .catch((e: unknown) => e);
    expect((refused as InstanceType<ClientModule['CapiError']>).envelope.error).toMatchObject({ status: 403, name: 'ForbiddenError' });
  });

  it('signs in, sends the JWT from then on, and signs out', async () => {
    const client = anonymous();
    const denied = await client
      .collection('tags')
      .create({ name: 'nope' })
      .catch((e: unknown) => e);
    expect((denied as InstanceType<ClientModule['CapiError']>).status).toBe(403);
    const signed = await client.auth.login({ identifier: 'ada@example.com', password: 'lovelace1' });
    expect(signed.user).toMatchObject({ username: 'ada', email: 'ada@example.com' });
    expect(signed.user).not.toHaveProperty('password');
    expect((await client.auth.me()).username).toBe('ada');
    expect((await client.collection('tags').create({ name: 'signed-in' })).data.name).toBe('signed-in');
    client.auth.logout();
    expect(((await client.auth.me().catch((e: unknown) => e)) as InstanceType<ClientModule['CapiError']>).status).toBe(403);

    const wrong = await client.auth.login({ identifier: 'ada', password: 'wrong-password' }).catch((e: unknown) => e);
    expect((wrong as InstanceType<ClientModule['CapiError']>).envelope.error).toMatchObject({ status: 400, name: 'ValidationError', message: 'Invalid identifier or password' });
    expect(await client.auth.forgotPassword({ email: 'ada@example.com' })).toEqual({ ok: true });
    // An API-token style string (@strapi/client's `auth`) is sent as a bearer too: a JWT works.
    expect((await api.strapi({ baseURL: `${server.url}/api`, auth: jwt }).auth.me()).username).toBe('ada');
  });

  it('throws the server envelope for invalid queries and bodies', async () => {
    const client = signedIn();
    const badQuery = await client
      .collection('articles')
      .find({ filters: { nope: 'x' } } as never)
      .catch((e: unknown) => e);
    expect(badQuery).toBeInstanceOf(api.CapiError);
    const error = badQuery as InstanceType<ClientModule['CapiError']>;
    expect(error.envelope.data).toBeNull();
    expect(error.envelope.error).toMatchObject({ status: 400, name: 'ValidationError', message: 'Invalid key nope' });
    expect(error.request.method).toBe('GET');
    expect(error.response.status).toBe(400);
    const badBody = await client
      .collection('tags')
      .create({ name: 5 } as never)
      .catch((e: unknown) => e);
    expect((badBody as InstanceType<ClientModule['CapiError']>).envelope.error).toMatchObject({ status: 400, name: 'ValidationError' });
  });

  it('goes through an injected fetch with the configured headers', async () => {
    const seen: { url: string; headers: Record<string, string> }[] = [];
    const client = api.createClient({
      baseURL: `${server.url}/api/`,
      auth: { token: jwt },
      headers: { 'x-front-end': 'tests' },
      fetch: async (input, init) => {
        seen.push({ url: String(input), headers: { ...(init?.headers as Record<string, string>) } });
        return fetch(input, init);
      },
    });
    await client.collection('tags').find({ filters: { name: { $in: ['alpha', 'beta'] } }, sort: ['name'] });
    expect(seen).toEqual([
      {
        url: `${server.url}/api/tags?filters[name][$in][0]=alpha&filters[name][$in][1]=beta&sort[0]=name`,
        headers: { accept: 'application/json', 'x-front-end': 'tests', authorization: `Bearer ${jwt}` },
      },
    ]);
  });

  it('runs GraphQL operations beside the REST API, typed by a codegen document, errors thrown', async () => {
    const client = signedIn();
    await client.collection('tags').create({ name: 'graphql-tag', weight: 42 });
    const Tags = new String('query Tags($weight: Int) { tags(filters: { weight: { eq: $weight } }) { name weight } }') as unknown as import('../../generated/client/src/index.ts').TypedDocument<
      { tags: { name: string; weight: number | null }[] },
      { weight: number }
    >;
    expect(await client.graphql(Tags, { weight: 42 })).toEqual({ tags: [{ name: 'graphql-tag', weight: 42 }] });
    const invalid = await client.graphql('{ tags { nope } }').catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(api.GraphqlError);
    expect((invalid as InstanceType<ClientModule['GraphqlError']>).errors[0]?.message).toMatch(/nope/);
  });

  it('runs the example front end', async () => {
    // The example as a front end would build it, against this project's compiled client package.
    const compiled = await buildExample(join(project, 'client'), join(workDir, 'example'));
    const { stdout } = await run(process.execPath, [join(compiled, 'index.js')], { env: { ...process.env, API_URL: `${server.url}/api` } });
    expect(stdout).toMatch(/^Client two \(9 min\)/m);
    expect(stdout).toMatch(/NotFoundError: Not Found/);
  });
});
