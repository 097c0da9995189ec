/**
 * The OpenAPI 3.1 document of a generated project (openapi.json, served at /api/openapi.json):
 * valid under an OpenAPI validator, and true to the server. Every operation of every path is
 * called against a seeded server, on SQLite and PostgreSQL, and each answer is validated (ajv,
 * JSON Schema 2020-12) against the schema the document declares for its status; an answer with
 * an undeclared status fails. Create bodies are made from the document's own input schemas.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitOpenApi } from '../../generator/emit/openapi.ts';
import { prepareProject, seed, startReferenceServer, type HarnessOptions } from '../conformance/harness.ts';
import type { RunningServer } from '../support/cli.ts';
import { exampleContentTypes, repoRoot } from '../support/model.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';
import { generatorModelFrom } from '../support/runtime-model.ts';

type Json = Record<string, any>;

const SECRET = 'openapi-test-jwt-secret';
const UP = 'plugin::users-permissions';
const METHODS = ['get', 'post', 'put', 'delete'] as const;

function permissions(model: Json): Record<string, string[]> {
  const actions: string[] = [];
  for (const type of Object.values(model.contentTypes) as { uid: string; kind: string }[]) {
    if (!type.uid.startsWith('api::')) continue;
    const verbs = type.kind === 'singleType' ? ['find', 'update', 'delete'] : ['find', 'findOne', 'create', 'update', 'delete'];
    actions.push(...verbs.map((v) => `${type.uid}.${v}`));
  }
  actions.push(...['find', 'findOne', 'upload', 'destroy'].map((a) => `plugin::upload.content-api.${a}`), 'plugin::i18n.locales.listLocales');
  const auth = ['callback', 'register', 'forgotPassword', 'resetPassword', 'sendEmailConfirmation'].map((a) => `${UP}.auth.${a}`);
  return { public: [...actions, ...auth], authenticated: [...actions, ...auth, `${UP}.user.me`, `${UP}.auth.changePassword`] };
}

describe('the OpenAPI document', () => {
  // The document of content-types/ as `capi generate` writes it (openapi.json), emitted now.
  const document = JSON.parse(JSON.stringify(emitOpenApi(generatorModelFrom(exampleContentTypes)))) as Json;

  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes the routes of the model and no others, with the query parameters of each', () => {
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        '/articles',
        '/articles/{documentId}',
        '/global',
        '/about',
        '/upload',
        '/upload/files',
        '/upload/files/{id}',
        '/auth/local',
        '/auth/local/register',
        '/users/me',
        '/i18n/locales',
      ]),
    );
    // users-permissions' types have the plugin's routes, not content-type ones; nor is a single type a collection.
    expect(Object.keys(document.paths)).not.toContain('/users/{documentId}');
    expect(Object.keys(document.paths)).not.toContain('/globals');
    const parameters = (op: Json) => op.parameters.map((p: Json) => p.$ref?.split('/').pop() ?? p.name);
    expect(parameters(document.paths['/articles'].get)).toEqual(['populate', 'filters', 'sort', 'pagination', 'fields', 'status']);
    expect(parameters(document.paths['/pages'].get)).toEqual(['populate', 'filters', 'sort', 'pagination', 'fields', 'status', 'locale']);
    expect(parameters(document.paths['/tags'].get)).toEqual(['populate', 'filters', 'sort', 'pagination', 'fields']);
    expect(document.components.parameters.filters).toMatchObject({ in: 'query', style: 'deepObject', explode: true });
    expect(Object.keys(document.components.securitySchemes)).toEqual(['apiToken', 'userJwt']);
  });

  it('never mentions private attributes or passwords in what the API answers', () => {
    const product = document.components.schemas.Product;
    expect(Object.keys(product.properties)).not.toContain('internalCode');
    expect(Object.keys(product.properties)).not.toContain('secret');
    expect(product.unevaluatedProperties).toBe(false);
    expect(Object.keys(document.components.schemas.User.$ref ? document.components.schemas[document.components.schemas.User.$ref.split('/').pop()].properties : {})).not.toContain('password');
  });
});

describe.each(clients)('every operation of the document against the server on %s', (database) => {
  let pg: TestDatabase | undefined;
  let server: RunningServer;
  let document: Json;
  let ajv: Ajv2020;
  const workDir = join(repoRoot, 'tmp', `openapi-${database}-${process.pid}`);

  beforeAll(async () => {
    pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_openapi');
    const options: HarnessOptions = { database, workDir, ...(pg ? { databaseUrl: pg.url } : {}) };
    const project = await prepareProject(options);
    const { model } = (await import(join(project, 'src', 'model.ts'))) as { model: Json };
    writeFileSync(join(project, 'config', 'permissions.json'), JSON.stringify(permissions(model)));
    // The reference server runs in production, where the document is served only when enabled.
    const plugins = join(project, 'config', 'plugins.json');
    writeFileSync(plugins, JSON.stringify({ ...(JSON.parse(readFileSync(plugins, 'utf8')) as object), documentation: { enabled: true } }));
    server = await startReferenceServer(project, options, { JWT_SECRET: SECRET });
    await seed(server, workDir);
    document = (await (await fetch(`${server.url}/api/openapi.json`)).json()) as Json;
    ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema({ ...document, $id: 'openapi' });
  });

  afterAll(async () => {
    await server?.stop();
    await pg?.drop();
  });

  const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

  /** Checks an answer against the schema the document declares for its status. */
  function conforms(path: string, method: string, status: number, body: unknown): void {
    const responses = document.paths[path][method].responses as Json;
    const declared = responses[String(status)];
    expect(declared, `${method.toUpperCase()} ${path} answered ${status}, which the document does not declare: ${JSON.stringify(body)}`).toBeDefined();
    const base = declared.$ref === undefined ? `/paths/${pointer(path)}/${method}/responses/${status}` : declared.$ref.slice(1);
    const response = declared.$ref === undefined ? declared : document.components.responses[declared.$ref.split('/').pop()];
    if (response.content === undefined) {
      expect(body, `${method.toUpperCase()} ${path}: no content declared`).toBeUndefined();
      return;
    }
    const validate = ajv.compile({ $ref: `openapi#${base}/content/${pointer('application/json')}/schema` });
    const valid = validate(body);
    expect(valid ? [] : validate.errors?.slice(0, 5), `${method.toUpperCase()} ${path} (${status}): ${JSON.stringify(body).slice(0, 600)}`).toEqual([]);
  }

  let counter = 0;
  /** A value for a schema of the document: the first choice of unions, required properties only. */
  function sample(schema: Json, key = ''): unknown {
    if (schema.$ref !== undefined) return sample(document.components.schemas[schema.$ref.split('/').pop()], key);
    if (schema.anyOf !== undefined) return sample(schema.anyOf.find((s: Json) => s.type !== 'null') ?? schema.anyOf[0], key);
    if (schema.enum !== undefined) return schema.enum[0];
    if (schema.const !== undefined) return schema.const;
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    counter += 1;
    switch (type) {
      case 'object':
        return Object.fromEntries((schema.required ?? []).map((name: string) => [name, sample(schema.properties[name], name)]));
      case 'array':
        return [];
      case 'integer':
      case 'number':
        return counter;
      case 'boolean':
        return true;
      case 'string':
        if (schema.format === 'email') return `openapi-${counter}@example.com`;
        if (schema.format === 'date-time') return new Date(Date.UTC(2024, 0, 1)).toISOString();
        return `openapi-${key}-${counter}`.toLowerCase();
      default:
        return `openapi-${counter}`;
    }
  }

  interface Answer {
    readonly status: number;
    readonly body: unknown;
  }

  async function call(method: string, path: string, options: { body?: unknown; jwt?: string; form?: FormData } = {}): Promise<Answer> {
    const headers: Record<string, string> = options.jwt === undefined ? {} : { authorization: `Bearer ${options.jwt}` };
    let body: BodyInit | undefined = options.form;
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const res = await fetch(`${server.url}/api${path}`, { method: method.toUpperCase(), headers, ...(body === undefined ? {} : { body }), redirect: 'manual' });
    const text = await res.text();
    return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
  }

  /**
   * `populate` two levels deep for an entry schema: every relation and component with its own
   * attributes populated (`[populate]=*`), every dynamic-zone component through `on`.
   */
  function deepPopulate(entry: string): string {
    const parts: string[] = [];
    for (const [key, schema] of Object.entries(document.components.schemas[entry].properties as Record<string, Json>)) {
      const text = JSON.stringify(schema);
      if (!text.includes('$ref') || text.includes('UploadFile')) continue;
      const members = schema.items?.anyOf as Json[] | undefined;
      if (members?.[0]?.properties?.__component !== undefined) {
        for (const member of members) parts.push(`populate[${key}][on][${member.properties.__component.const}][populate]=*`);
      } else parts.push(`populate[${key}][populate]=*`);
    }
    return parts.join('&');
  }

  it('answers reads populated two levels deep as declared', async () => {
    let checked = 0;
    for (const path of Object.keys(document.paths).filter((p) => !/^\/(upload|auth|users|i18n)\b/.test(p) && !p.includes('{'))) {
      const ok = document.paths[path].get.responses['200'].content['application/json'].schema.$ref as string;
      const entry = ok
        .split('/')
        .pop()!
        .replace(/(List)?Response$/, '');
      const query = deepPopulate(entry);
      if (query === '') continue;
      const answer = await call('get', `${path}?${query}`);
      expect(answer.status, `${path}?${query}: ${JSON.stringify(answer.body)}`).toBe(200);
      conforms(path, 'get', answer.status, answer.body);
      checked += 1;
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it("answers every list route called with the parameters' examples, as Swagger UI's Try it out sends them", async () => {
    let checked = 0;
    for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
      const parameters = ((item.get?.parameters ?? []) as Json[]).map((p) => (p.$ref === undefined ? p : document.components.parameters[p.$ref.split('/').pop()]));
      const examples = parameters.filter((p) => p.example !== undefined);
      if (examples.length === 0) continue;
      const query = qs.stringify(Object.fromEntries(examples.map((p) => [p.name, p.example])));
      const answer = await call('get', `${path}?${query}`);
      expect(answer.status, `${path}?${query}: ${JSON.stringify(answer.body)}`).toBe(200);
      checked += 1;
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });

  it('answers every content-type operation as declared', async () => {
    const exercised: string[] = [];
    const paths = Object.keys(document.paths).filter((p) => !/^\/(upload|auth|users|i18n)\b/.test(p));
    for (const path of paths.filter((p) => !p.includes('{'))) {
      const operations = document.paths[path] as Json;
      const item = `${path}/{documentId}`;
      // Reads with everything populated, so relations, media, components and zones are checked too.
      const list = await call('get', `${path}?populate=*`);
      conforms(path, 'get', list.status, list.body);
      expect(list.status).toBe(200);
      exercised.push(`GET ${path}`);
      if (operations.post !== undefined) {
        const input = operations.post.requestBody.content['application/json'].schema;
        const created = await call('post', `${path}?populate=*`, { body: sample(input) });
        conforms(path, 'post', created.status, created.body);
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        exercised.push(`POST ${path}`);
        const documentId = (created.body as Json).data.documentId as string;
        const one = await call('get', `${path}/${documentId}?populate=*`);
        conforms(item, 'get', one.status, one.body);
        expect(one.status).toBe(200);
        const updated = await call('put', `${path}/${documentId}`, { body: { data: {} } });
        conforms(item, 'put', updated.status, updated.body);
        expect(updated.status).toBe(200);
        const deleted = await call('delete', `${path}/${documentId}`);
        conforms(item, 'delete', deleted.status, deleted.body);
        expect(deleted.status).toBe(204);
        const missing = await call('get', `${path}/${documentId}`);
        conforms(item, 'get', missing.status, missing.body);
        expect(missing.status).toBe(404);
        exercised.push(`GET ${item}`, `PUT ${item}`, `DELETE ${item}`);
      } else {
        const updated = await call('put', `${path}?populate=*`, { body: { data: {} } });
        conforms(path, 'put', updated.status, updated.body);
        expect(updated.status).toBe(200);
        const deleted = await call('delete', path);
        conforms(path, 'delete', deleted.status, deleted.body);
        expect(deleted.status).toBe(204);
        exercised.push(`PUT ${path}`, `DELETE ${path}`);
      }
      // A bad query is answered with the declared error envelope.
      const invalid = await call('get', `${path}?filters[nope]=1`);
      conforms(path, 'get', invalid.status, invalid.body);
      expect(invalid.status).toBe(400);
    }
    const declared = paths.flatMap((p) => METHODS.filter((m) => document.paths[p][m] !== undefined).map((m) => `${m.toUpperCase()} ${p}`));
    expect(exercised.sort()).toEqual(declared.sort());
  });

  it('answers the upload operations as declared', async () => {
    const form = new FormData();
    form.append('files', new Blob(['openapi'], { type: 'text/plain' }), 'openapi.txt');
    form.append('fileInfo', JSON.stringify({ caption: 'from the OpenAPI test' }));
    const uploaded = await call('post', '/upload', { form });
    conforms('/upload', 'post', uploaded.status, uploaded.body);
    expect(uploaded.status).toBe(201);
    const id = (uploaded.body as Json[])[0]!.id as number;
    const info = new FormData();
    info.append('fileInfo', JSON.stringify({ alternativeText: 'alt' }));
    const changed = await call('post', `/upload?id=${id}`, { form: info });
    conforms('/upload', 'post', changed.status, changed.body);
    expect(changed.status).toBe(200);
    const list = await call('get', '/upload/files?populate=related');
    conforms('/upload/files', 'get', list.status, list.body);
    expect(list.status).toBe(200);
    const one = await call('get', `/upload/files/${id}`);
    conforms('/upload/files/{id}', 'get', one.status, one.body);
    const deleted = await call('delete', `/upload/files/${id}`);
    conforms('/upload/files/{id}', 'delete', deleted.status, deleted.body);
    expect(deleted.status).toBe(200);
    const missing = await call('delete', `/upload/files/${id}`);
    conforms('/upload/files/{id}', 'delete', missing.status, missing.body);
    expect(missing.status).toBe(404);
  });

  it('answers the locale list as declared', async () => {
    const locales = await call('get', '/i18n/locales');
    conforms('/i18n/locales', 'get', locales.status, locales.body);
    expect((locales.body as Json[]).map((l) => l.code)).toEqual(['en', 'fr']);
  });

  it('answers the sign-in operations as declared', async () => {
    const account = { username: 'openapi', email: 'openapi@example.com', password: 'openapi-1' };
    const registered = await call('post', '/auth/local/register', { body: account });
    conforms('/auth/local/register', 'post', registered.status, registered.body);
    expect(registered.status).toBe(200);
    const login = await call('post', '/auth/local', { body: { identifier: account.email, password: account.password } });
    conforms('/auth/local', 'post', login.status, login.body);
    const jwt = (login.body as Json).jwt as string;
    const refused = await call('post', '/auth/local', { body: { identifier: account.email, password: 'wrong' } });
    conforms('/auth/local', 'post', refused.status, refused.body);
    expect(refused.status).toBe(400);
    const me = await call('get', '/users/me?populate=role', { jwt });
    conforms('/users/me', 'get', me.status, me.body);
    expect(me.status).toBe(200);
    const forgot = await call('post', '/auth/forgot-password', { body: { email: account.email } });
    conforms('/auth/forgot-password', 'post', forgot.status, forgot.body);
    expect(forgot.status).toBe(200);
    const reset = await call('post', '/auth/reset-password', { body: { code: 'not-a-code', password: 'x-123456', passwordConfirmation: 'x-123456' } });
    conforms('/auth/reset-password', 'post', reset.status, reset.body);
    expect(reset.status).toBe(400);
    const changed = await call('post', '/auth/change-password', { jwt, body: { currentPassword: account.password, password: 'openapi-2', passwordConfirmation: 'openapi-2' } });
    conforms('/auth/change-password', 'post', changed.status, changed.body);
    expect(changed.status).toBe(200);
    const confirmation = await call('post', '/auth/send-email-confirmation', { body: { email: 'nobody@example.com' } });
    conforms('/auth/send-email-confirmation', 'post', confirmation.status, confirmation.body);
    expect(confirmation.status).toBe(200);
  });
});
