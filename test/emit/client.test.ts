/**
 * The client and OpenAPI emitters: pure functions of the model, checked against golden files for
 * the example content types, plus the properties a front end relies on (package entry points, no
 * server dependency, no private attribute anywhere).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emitClient, type ClientOptions } from '../../generator/emit/client.ts';
import { emitOpenApi } from '../../generator/emit/openapi.ts';
import { exampleContentTypes, loadModelFrom, repoRoot } from '../support/model.ts';

const goldenDir = join(repoRoot, 'test', 'golden');
const model = loadModelFrom(exampleContentTypes);
const OPTIONS: ClientOptions = {
  projectName: 'example',
  source: '../content-types/',
  graphqlSchema: 'type Query { ok: Boolean }\n',
  capiVersion: '0.1.0',
  versions: { qs: '^6.14.1', '@types/qs': '^6.14.0', typescript: '^7.0.2' },
};

function expectGolden(name: string, actual: string): void {
  const path = join(goldenDir, name);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
  }
  expect(actual, `golden file test/golden/${name}`).toBe(readFileSync(path, 'utf8'));
}

describe('client emitter', async () => {
  const files = await emitClient(model, OPTIONS);
  const file = (path: string): string => files.find((f) => f.path === `client/${path}`)?.contents ?? '';

  it('emits a package of its own: manifest, config, runtime, schema, entry point, GraphQL files', () => {
    expect(files.map((f) => f.path)).toEqual([
      'client/README.md',
      'client/codegen.ts',
      'client/package.json',
      'client/schema.graphql',
      'client/src/client.ts',
      'client/src/errors.ts',
      'client/src/http.ts',
      'client/src/index.ts',
      'client/src/query-string.ts',
      'client/src/schema.ts',
      'client/src/types.ts',
      'client/tsconfig.json',
    ]);
    expect(files.every((f) => f.policy === 'owned')).toBe(true);
  });

  it('emits the model as types', () => expectGolden('client/schema.ts', file('src/schema.ts')));
  it('emits the entry point', () => expectGolden('client/index.ts', file('src/index.ts')));

  it('declares ESM entry points with types, and no dependency but qs', () => {
    const manifest = JSON.parse(file('package.json')) as Record<string, any>;
    expect(manifest).toMatchObject({ name: 'example-client', type: 'module', exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } } });
    expect(manifest.dependencies).toEqual({ qs: '^6.14.1' });
    for (const f of files.filter((f) => f.path.startsWith('client/src/'))) expect(f.contents).not.toMatch(/from '(?!\.\/|qs')/);
  });

  it('copies the runtime byte for byte', () => {
    for (const name of ['client.ts', 'errors.ts', 'http.ts', 'query-string.ts', 'types.ts']) {
      expect(file(`src/${name}`)).toBe(readFileSync(join(repoRoot, 'templates', 'client', name), 'utf8'));
    }
  });

  it('ships the GraphQL schema and a graphql-codegen config pointing at it', () => {
    expect(file('schema.graphql')).toBe(OPTIONS.graphqlSchema);
    expect(file('codegen.ts')).toContain("new URL('./schema.graphql', import.meta.url)");
    expect(file('codegen.ts')).toContain("preset: 'client'");
  });

  it('never names a private attribute or a password', () => {
    expect(file('src/schema.ts')).not.toMatch(/internalCode|secret|resetPasswordToken|confirmationToken|\bpassword\b/);
  });

  it('is a pure function of the model', async () => expect(await emitClient(model, OPTIONS)).toEqual(files));
});

describe('OpenAPI emitter', () => {
  const document = emitOpenApi(model) as Record<string, any>;

  it('emits the document', () => expectGolden('openapi.json', `${JSON.stringify(document, null, 2)}\n`));

  it('never names a private attribute or a password in an answer or a body', () => {
    expect(JSON.stringify(document.components.schemas)).not.toMatch(/internalCode|"secret"|resetPasswordToken|confirmationToken|"password":\{"anyOf/);
  });

  it('describes a single type by its singular name and a collection by its plural', () => {
    expect(document.paths['/global']).toHaveProperty('get');
    expect(document.paths['/global']).not.toHaveProperty('post');
    expect(document.paths['/articles']).toHaveProperty('post');
    expect(document.paths['/articles/{documentId}']).toHaveProperty('delete');
    expect(document.paths['/articles/{documentId}'].delete.responses).toHaveProperty('204');
  });

  it('requires on create what the server requires, and nothing on update', () => {
    expect(document.components.schemas.TagInput.required).toEqual(['name']);
    expect(document.components.schemas.TagUpdateInput.required).toBeUndefined();
  });

  it('is a pure function of the model', () => expect(emitOpenApi(model)).toEqual(document));
});
