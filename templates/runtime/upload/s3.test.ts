/**
 * The aws-s3 upload provider against a real S3-compatible server (s3rver, started here on
 * 127.0.0.1): uploads with image formats, the objects' bytes read back over HTTP, replacement,
 * deletion and rollback, on SQLite and PostgreSQL; and the provider's configuration checks.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, readdirSync, existsSync } from 'node:fs';
import { once } from 'node:events';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import { ConfigError, loadConfig, type AppConfig } from '../config.ts';
import type { Database, Queryable } from '../database.ts';
import { createLogger } from '../logger.ts';
import { createApp } from '../server.ts';
import type { S3ProviderConfig } from './provider-config.ts';
import { S3Provider } from './provider-s3.ts';
import { checkUploadStorage } from './provider.ts';
import { removeStored, storeFiles } from './stored-files.ts';
import { uploadMount } from './routes.ts';

const bucket = 'capi-media';
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const scratch = mkdtempSync(join(tmpdir(), 'capi-s3-'));

let s3server: S3rver;
let endpoint: string;
let s3: S3Client;

beforeAll(async () => {
  s3server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(scratch, 's3'), configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await s3server.run();
  endpoint = `http://127.0.0.1:${port}`;
  s3 = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { ...credentials } });
});
afterAll(async () => {
  s3?.destroy();
  await s3server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Every key in the bucket under `prefix`, sorted. */
async function keys(prefix: string): Promise<string[]> {
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (listed.Contents ?? []).map((object) => object.Key ?? '').sort();
}

async function bytesAt(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(url);
  return { status: response.status, type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}

function solidPng(width: number, height: number, color: { r: number; g: number; b: number }): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

function s3Config(rootPath: string, overrides: Partial<S3ProviderConfig> = {}): S3ProviderConfig {
  return { provider: 'aws-s3', baseUrl: null, rootPath, bucket, acl: 'public-read', region: 'us-east-1', endpoint, forcePathStyle: true, credentials, ...overrides };
}

/** The project's config files as a user writes them, read by loadConfig (so the test covers the file format too). */
function projectWith(root: string, upload: unknown, env: Record<string, string>): AppConfig {
  mkdirSync(join(root, 'config'), { recursive: true });
  writeFileSync(join(root, 'config', 'plugins.json'), JSON.stringify({ upload }));
  const config = loadConfig({ projectRoot: root, env });
  return { ...config, database: { client: 'sqlite', filename: ':memory:', label: ':memory:' } };
}

interface TestApp {
  readonly url: string;
  readonly root: string;
  close(): Promise<void>;
}

let appCounter = 0;

async function startApp(example: ExampleDatabase, upload: unknown, env: Record<string, string> = {}): Promise<TestApp> {
  const root = join(scratch, `project-${++appCounter}`);
  const context = { config: projectWith(root, upload, env), db: example.db, model: example.model, logger: createLogger({ level: 'silent' }) };
  const app = createApp({ ...context, mounts: await uploadMount(context) });
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, root, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

type Json = Record<string, unknown>;

async function post(app: TestApp, name: string, bytes: Buffer, query = ''): Promise<{ status: number; body: unknown }> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), name);
  const response = await fetch(`${app.url}/api/upload${query}`, { method: 'POST', body: form });
  return { status: response.status, body: await response.json() };
}

describe.each(clients)('aws-s3 provider on %s', (client) => {
  let example: ExampleDatabase;
  let app: TestApp;
  const rootPath = `media-${client}`;

  beforeAll(async () => {
    example = await openExampleDatabase(client);
    // Credentials and bucket from the environment, as Strapi projects take them with env().
    app = await startApp(
      example,
      {
        config: {
          provider: 'aws-s3',
          providerOptions: {
            rootPath,
            s3Options: {
              credentials: { accessKeyId: '${env:S3_KEY}', secretAccessKey: '${env:S3_SECRET}' },
              region: 'us-east-1',
              endpoint: '${env:S3_ENDPOINT}',
              forcePathStyle: true,
              params: { Bucket: '${env:S3_BUCKET}' },
            },
          },
        },
      },
      { S3_KEY: credentials.accessKeyId, S3_SECRET: credentials.secretAccessKey, S3_ENDPOINT: endpoint, S3_BUCKET: bucket },
    );
  });
  afterAll(async () => {
    await app?.close();
    await example?.close();
  });

  it('uploads the original and every format as objects, at the URLs it answers, and replaces and deletes them', async () => {
    const original = await solidPng(1200, 800, { r: 200, g: 30, b: 60 });
    const created = await post(app, 'poster.png', original);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const [file] = created.body as Json[];
    const hash = String(file?.hash);
    expect(file).toMatchObject({ provider: 'aws-s3', url: `${endpoint}/${bucket}/${rootPath}/${hash}.png`, width: 1200, height: 800 });
    const formats = file?.formats as Record<string, Json>;
    expect(Object.keys(formats)).toEqual(['thumbnail', 'large', 'medium', 'small']);
    for (const [name, format] of Object.entries(formats)) expect(format.url).toBe(`${endpoint}/${bucket}/${rootPath}/${name}_${hash}.png`);
    expect(await keys(rootPath)).toEqual([`${rootPath}/${hash}.png`, ...['large', 'medium', 'small', 'thumbnail'].map((name) => `${rootPath}/${name}_${hash}.png`)].sort());

    const served = await bytesAt(String(file?.url));
    expect(served).toMatchObject({ status: 200, type: 'image/png' });
    expect(served.bytes.equals(original)).toBe(true);
    for (const format of Object.values(formats)) {
      const copy = await bytesAt(String(format.url));
      expect(copy.status).toBe(200);
      expect(await sharp(copy.bytes).metadata()).toMatchObject({ format: 'png', width: format.width, height: format.height });
      expect(copy.bytes.length).toBe(format.sizeInBytes);
    }
    // Nothing of it is kept on the local disk.
    const local = join(app.root, 'public', 'uploads');
    expect(readdirSync(local).filter((name) => name !== '.tmp')).toEqual([]);

    // A smaller image replaces it: same URL, new bytes, and the formats it is too small for are gone.
    const smaller = await solidPng(400, 300, { r: 10, g: 200, b: 90 });
    const replaced = await post(app, 'poster-v2.png', smaller, `?id=${String(file?.id)}`);
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    const after = replaced.body as Json;
    expect(after).toMatchObject({ hash, url: file?.url, provider: 'aws-s3', width: 400, height: 300 });
    expect(Object.keys(after.formats as Json)).toEqual(['thumbnail']);
    expect(await keys(rootPath)).toEqual([`${rootPath}/${hash}.png`, `${rootPath}/thumbnail_${hash}.png`]);
    expect((await bytesAt(String(file?.url))).bytes.equals(smaller)).toBe(true);

    const deleted = await fetch(`${app.url}/api/upload/files/${String(file?.id)}`, { method: 'DELETE' });
    expect(deleted.status).toBe(200);
    expect(await keys(rootPath)).toEqual([]);
    expect((await bytesAt(String(file?.url))).status).toBe(404);
    const rows = await example.db.query<{ n: unknown }>('SELECT count(*) AS n FROM files');
    expect(Number(rows[0]?.n)).toBe(0);
  });

  it('takes the objects back when the transaction that records them fails', async () => {
    // The objects are stored before the transaction; one that fails at its end must remove them.
    const failingCommit: Database = new Proxy(example.db, {
      get(target, property) {
        if (property === 'transaction') {
          return async <R>(fn: (tx: Queryable) => Promise<R>): Promise<R> =>
            target.transaction(async (tx) => {
              await fn(tx);
              throw new Error('simulated commit failure');
            });
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const prefix = `${rootPath}-rollback`;
    const failing = await startApp(
      { ...example, db: failingCommit },
      { config: { provider: 'aws-s3', providerOptions: { rootPath: prefix, s3Options: { credentials, endpoint, forcePathStyle: true, params: { Bucket: bucket } } } } },
    );
    try {
      const reply = await post(failing, 'doomed.png', await solidPng(600, 400, { r: 1, g: 2, b: 3 }));
      expect(reply.status).toBe(500);
      expect(await keys(prefix)).toEqual([]);
      const rows = await example.db.query<{ n: unknown }>('SELECT count(*) AS n FROM files');
      expect(Number(rows[0]?.n)).toBe(0);
    } finally {
      await failing.close();
    }
  });
});

describe('aws-s3 provider URLs and replacement', () => {
  it('builds URLs from baseUrl, path style or virtual-hosted style as Strapi does', () => {
    expect(new S3Provider(s3Config('site/media', { baseUrl: 'https://cdn.example.com' })).urlOf('a_1.png')).toBe('https://cdn.example.com/site/media/a_1.png');
    expect(new S3Provider(s3Config('')).urlOf('a_1.png')).toBe(`${endpoint}/${bucket}/a_1.png`);
    expect(new S3Provider(s3Config('', { endpoint: null, forcePathStyle: false, region: 'eu-west-3' })).urlOf('a_1.png')).toBe(`https://${bucket}.s3.eu-west-3.amazonaws.com/a_1.png`);
    expect(new S3Provider(s3Config('m', { endpoint: 'https://s3.example.net', forcePathStyle: false })).urlOf('a_1.png')).toBe(`https://${bucket}.s3.example.net/m/a_1.png`);
  });

  it('puts displaced objects back when a replacement is undone', async () => {
    const provider = new S3Provider(s3Config('undo'));
    const work = mkdtempSync(join(scratch, 'work-'));
    const staged = (name: string, text: string): { stagedPath: string; fileName: string; mime: string } => {
      const path = join(work, `staged-${name}`);
      writeFileSync(path, text);
      return { stagedPath: path, fileName: name, mime: 'text/plain' };
    };
    await storeFiles(provider, [staged('a_1.txt', 'old a'), staged('small_a_1.txt', 'old small')]);
    const backupDir = join(work, 'displaced');
    mkdirSync(backupDir);
    const placement = await storeFiles(provider, [staged('a_1.txt', 'new a')], { names: ['a_1.txt', 'small_a_1.txt'], backupDir });
    expect(await keys('undo/')).toEqual(['undo/a_1.txt']);
    expect((await bytesAt(provider.urlOf('a_1.txt'))).bytes.toString()).toBe('new a');
    await placement.undo();
    expect(await keys('undo/')).toEqual(['undo/a_1.txt', 'undo/small_a_1.txt']);
    expect((await bytesAt(provider.urlOf('a_1.txt'))).bytes.toString()).toBe('old a');
    expect(await bytesAt(provider.urlOf('small_a_1.txt'))).toMatchObject({ status: 200, type: 'text/plain' });
    expect(await removeStored(provider, ['a_1.txt', 'small_a_1.txt', 'never_there.txt'])).toEqual([]);
    expect(await keys('undo/')).toEqual([]);
    expect(existsSync(backupDir)).toBe(true);
  });
});

describe('checking the storage at start', () => {
  it('passes for a bucket that exists, and for the local provider', async () => {
    const warnings: string[] = [];
    await checkUploadStorage(s3Config('media'), (message) => warnings.push(message));
    await checkUploadStorage({ provider: 'local' }, (message) => warnings.push(message));
    expect(warnings).toEqual([]);
  });

  it('stops the start for a bucket that does not exist, naming the key', async () => {
    await expect(checkUploadStorage(s3Config('media', { bucket: 'no-such-bucket' }), () => undefined)).rejects.toThrow(
      new ConfigError(`config/plugins.json: upload.config.providerOptions.s3Options.params.Bucket names the S3 bucket "no-such-bucket" at ${endpoint}, which does not exist`),
    );
  });

  it('only warns when the server does not answer, which may pass', async () => {
    const warnings: string[] = [];
    await checkUploadStorage(s3Config('media', { endpoint: 'http://127.0.0.1:1' }), (message) => warnings.push(message));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^upload: could not check the S3 bucket "capi-media" at http:\/\/127\.0\.0\.1:1: .+; uploads will fail until it answers$/);
  });
});

describe('upload provider configuration', () => {
  const load = (upload: unknown, env: Record<string, string> = {}): AppConfig['plugins']['upload'] => projectWith(mkdtempSync(join(scratch, 'cfg-')), upload, env).plugins.upload;
  const s3Options = { params: { Bucket: 'b' } };

  it('defaults to the local provider and reads Strapi names and package names', () => {
    expect(load({}).provider).toEqual({ provider: 'local' });
    expect(load({ config: { provider: 'local', sizeLimit: 5000 } })).toMatchObject({ sizeLimit: 5000, provider: { provider: 'local' } });
    expect(load({ config: { provider: '@strapi/provider-upload-aws-s3', providerOptions: { baseUrl: 'https://cdn.example.com/', rootPath: '/a/b/', s3Options } } }).provider).toEqual({
      provider: 'aws-s3',
      baseUrl: 'https://cdn.example.com',
      rootPath: 'a/b',
      bucket: 'b',
      acl: 'public-read',
      region: null,
      endpoint: null,
      forcePathStyle: false,
      credentials: null,
    });
    expect(load({ config: { provider: 'aws-s3', providerOptions: { s3Options: { params: { Bucket: 'b', ACL: null } } } } }).provider).toMatchObject({ acl: null });
  });

  it.each([
    [{ config: { provider: 'gcs' } }, 'config/plugins.json: upload.config.provider must be one of "local", "aws-s3" (got "gcs")'],
    [{ config: { provider: 'aws-s3' } }, 'config/plugins.json: upload.config.providerOptions is required when provider is "aws-s3" (at least s3Options.params.Bucket)'],
    [
      { config: { provider: 'aws-s3', providerOptions: { s3Options: { region: 'x' } } } },
      'config/plugins.json: upload.config.providerOptions.s3Options.params.Bucket is required when provider is "aws-s3"',
    ],
    [
      { config: { provider: 'aws-s3', providerOptions: { s3Options: { params: { Bucket: '${env:NO_SUCH_BUCKET_VAR}' } } } } },
      'config/plugins.json: upload.config.providerOptions.s3Options.params.Bucket names the environment variable NO_SUCH_BUCKET_VAR, which is not set',
    ],
    [
      { config: { provider: 'aws-s3', providerOptions: { s3Options: { params: { Bucket: 'b', ACL: 'private' } } } } },
      'config/plugins.json: upload.config.providerOptions.s3Options.params.ACL "private" needs signed URLs, which capi does not issue; use a public ACL, or null and a bucket policy (got "private")',
    ],
    [
      { config: { provider: 'aws-s3', providerOptions: { s3Options: { endpoint: 'minio:9000', params: { Bucket: 'b' } } } } },
      'config/plugins.json: upload.config.providerOptions.s3Options.endpoint must be an http:// or https:// URL (got "minio:9000")',
    ],
    [
      { config: { provider: 'aws-s3', providerOptions: { s3Options: { params: { Bucket: 'b' }, forcePathstyle: true } } } },
      'config/plugins.json: unknown key "upload.config.providerOptions.s3Options.forcePathstyle" (did you mean "upload.config.providerOptions.s3Options.forcePathStyle"?)',
    ],
    [
      { config: { provider: 'aws-s3', providerOptions: { rootPath: 'a/../b', s3Options: { params: { Bucket: 'b' } } } } },
      'config/plugins.json: upload.config.providerOptions.rootPath must be a key prefix like "media" or "site/media" (got "a/../b")',
    ],
    [{ config: { provider: 'local', providerOptions: { baseUrl: 'x' } } }, 'config/plugins.json: unknown key "upload.config.providerOptions.baseUrl"'],
    [{ sizeLimit: 10, config: { sizeLimit: 20 } }, 'config/plugins.json: upload.config.sizeLimit is the same setting as upload.sizeLimit: give it once'],
  ])('refuses %j at start with one line naming the key', (upload, message) => {
    expect(() => load(upload)).toThrow(new ConfigError(message));
  });
});
