/**
 * The client's HTTP layer and managers without a server: an injected fetch records what is sent
 * and answers what a test needs (error bodies that are not envelopes, 204s, multipart bodies).
 * test/http/client.test.ts covers the same against a real server.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSchemaClient, type ClientSchema } from '../../templates/client/client.ts';
import { CapiError } from '../../templates/client/errors.ts';

interface Sent {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

function recorder(answer: () => Response) {
  const sent: Sent[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    sent.push({ url: String(input), method: init?.method ?? 'GET', headers: { ...(init?.headers as Record<string, string>) }, body: init?.body });
    return answer();
  };
  return { sent, fetch };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

afterEach(() => vi.unstubAllGlobals());

describe('the client over an injected fetch', () => {
  it('sends JSON bodies wrapped in data, with the bearer token and the headers given', async () => {
    const { sent, fetch } = recorder(() => json(201, { data: { id: 1, documentId: 'd' }, meta: {} }));
    const client = createSchemaClient<ClientSchema>({ baseURL: 'https://cms.example/api/', auth: 'api-token', headers: { 'x-app': 'web' }, fetch });
    await client.collection('tags').create({ name: 'x' }, { populate: '*' });
    expect(sent).toEqual([
      {
        url: 'https://cms.example/api/tags?populate=%2A',
        method: 'POST',
        headers: { accept: 'application/json', 'x-app': 'web', authorization: 'Bearer api-token', 'content-type': 'application/json' },
        body: '{"data":{"name":"x"}}',
      },
    ]);
  });

  it('resolves deletes (204) with nothing and encodes document ids', async () => {
    const { sent, fetch } = recorder(() => new Response(null, { status: 204 }));
    const client = createSchemaClient<ClientSchema>({ baseURL: 'https://cms.example/api', fetch });
    await expect(client.collection('tags').delete('a/b?c', { locale: 'fr' })).resolves.toBeUndefined();
    expect(sent[0]?.url).toBe('https://cms.example/api/tags/a%2Fb%3Fc?locale=fr');
    expect(sent[0]?.headers).not.toHaveProperty('authorization');
  });

  it('turns an error answer that is not an envelope into one, keeping the response', async () => {
    const { fetch } = recorder(() => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    const client = createSchemaClient<ClientSchema>({ baseURL: 'https://cms.example/api', fetch });
    const error = await client
      .single('global')
      .find()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CapiError);
    expect((error as CapiError).envelope).toEqual({ data: null, error: { status: 502, name: 'HTTPError', message: 'Bad Gateway', details: {} } });
    expect((error as CapiError).request).toEqual({ method: 'GET', url: 'https://cms.example/api/global' });
  });

  it('uploads multipart form data with the file info as JSON, and changes info with ?id=', async () => {
    const { sent, fetch } = recorder(() => json(201, []));
    const client = createSchemaClient<ClientSchema>({ baseURL: 'https://cms.example/api', fetch });
    await client.files.upload([new Blob(['a']), new Blob(['b'])], { fileInfo: [{ name: 'a' }, { name: 'b' }] });
    await client.files.update(7, { caption: 'c' });
    const [upload, update] = sent;
    expect(upload?.url).toBe('https://cms.example/api/upload');
    expect(upload?.headers).not.toHaveProperty('content-type');
    const form = upload?.body as FormData;
    expect(form.getAll('files')).toHaveLength(2);
    expect(JSON.parse(String(form.get('fileInfo')))).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(update?.url).toBe('https://cms.example/api/upload?id=7');
    expect(JSON.parse(String((update?.body as FormData).get('fileInfo')))).toEqual({ caption: 'c' });
  });

  it('keeps the JWT a sign-in answers and drops it on logout', async () => {
    let answer = json(200, { jwt: 'user-jwt', user: { id: 1 } });
    const { sent, fetch } = recorder(() => answer);
    const client = createSchemaClient<ClientSchema>({ baseURL: 'https://cms.example/api', fetch });
    await client.auth.login({ identifier: 'ada', password: 'pw' });
    answer = json(200, { id: 1 });
    await client.auth.me();
    client.auth.logout();
    answer = json(200, { id: 1 });
    await client.auth.me().catch(() => undefined);
    expect(sent.map((s) => s.headers.authorization)).toEqual([undefined, 'Bearer user-jwt', undefined]);
  });

  it('posts GraphQL beside the REST root and throws its errors, whatever the status', async () => {
    const { sent, fetch } = recorder(() => json(400, { errors: [{ message: 'Cannot query field "nope"' }] }));
    const client = createSchemaClient<ClientSchema>({ baseURL: 'https://cms.example/cms/api', fetch });
    const error = await client.graphql('{ nope }').catch((e: unknown) => e);
    expect(sent[0]?.url).toBe('https://cms.example/cms/graphql');
    expect(JSON.parse(String(sent[0]?.body))).toEqual({ query: '{ nope }' });
    expect((error as Error).name).toBe('GraphqlError');
    expect((error as Error).message).toBe('Cannot query field "nope"');
  });

  it('takes a path as base URL in a browser, relative to the page', async () => {
    vi.stubGlobal('location', { href: 'https://shop.example/products/1' });
    const { sent, fetch } = recorder(() => json(200, { data: [], meta: {} }));
    const client = createSchemaClient<ClientSchema>({ baseURL: '/api', fetch });
    await client.collection('products').find();
    expect(sent[0]?.url).toBe('https://shop.example/api/products');
    expect(client.baseURL).toBe('https://shop.example/api');
  });

  it("takes @strapi/client's `path` option for a type served at a custom route", async () => {
    const { sent, fetch } = recorder(() => json(200, { data: [], meta: {} }));
    const client = createSchemaClient<ClientSchema>({ baseURL: 'https://cms.example/api', fetch });
    await client.collection('articles', { path: '/blog/posts' }).find({ sort: 'title' });
    await client.single('global', { path: '/site' }).find();
    expect(sent.map((s) => s.url)).toEqual(['https://cms.example/api/blog/posts?sort=title', 'https://cms.example/api/site']);
  });

  it('refuses a base URL that is not one', () => {
    expect(() => createSchemaClient<ClientSchema>({ baseURL: 'not a url' })).toThrow(TypeError);
  });
});
