/**
 * `capi import` into a project whose uploads go to S3 (config/plugins.json `upload.config.provider`
 * "aws-s3"), against a real S3-compatible server (s3rver, started here on 127.0.0.1), on SQLite
 * and PostgreSQL: every asset and format of the archive becomes an object of the bucket under its
 * archived name, the file rows get the bucket's URLs, and a failing import leaves the bucket as
 * it was (objects it stored deleted, objects it replaced put back). `capi export` of such a project
 * reads the objects back from the bucket into the archive, byte for byte.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database, Queryable } from '../../templates/runtime/database.ts';
import { archiveEntries } from '../../templates/runtime/transfer/archive-reader.ts';
import { exportArchive } from '../../templates/runtime/transfer/export.ts';
import type { S3ProviderConfig } from '../../templates/runtime/upload/provider-config.ts';
import { clients, openExampleDatabase, type ExampleDatabase } from '../support/example-db.ts';
import { fixtureArchive, fixtureTotals, runImport, scratchDir } from './support.ts';

const bucket = 'capi-import';
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const scratch = mkdtempSync(join(tmpdir(), 'capi-import-s3-'));
let s3server: S3rver;
let endpoint: string;
let s3: S3Client;
/** The archive's asset files, by name. */
const archived = new Map<string, Buffer>();

beforeAll(async () => {
  s3server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: join(scratch, 's3'), configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await s3server.run();
  endpoint = `http://127.0.0.1:${port}`;
  s3 = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: { ...credentials } });
  for (const [name, bytes] of await archivedAssets(fixtureArchive)) archived.set(name, bytes);
});
afterAll(async () => {
  s3?.destroy();
  await s3server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The asset files of an archive, by name. */
async function archivedAssets(file: string): Promise<Map<string, Buffer>> {
  const assets = new Map<string, Buffer>();
  for await (const item of archiveEntries(file)) {
    const chunks: Buffer[] = [];
    for await (const chunk of item.entry as AsyncIterable<Buffer>) chunks.push(chunk);
    if (item.path.startsWith('assets/uploads/')) assets.set(item.path.slice('assets/uploads/'.length), Buffer.concat(chunks));
  }
  return assets;
}

/** Every object under `prefix` with its bytes, by key. */
async function bucketContent(prefix: string): Promise<Record<string, string>> {
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `${prefix}/` }));
  const content: Record<string, string> = {};
  for (const { Key } of listed.Contents ?? []) {
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key }));
    content[Key ?? ''] = Buffer.from(await (object.Body?.transformToByteArray() ?? new Uint8Array())).toString('base64');
  }
  return content;
}

/** A database whose transactions fail at the very end, after the import has stored its objects. */
function failingCommit(db: Database): Database {
  return new Proxy(db, {
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
}

describe.each(clients)('capi import into an aws-s3 project on %s', (client) => {
  let ctx: ExampleDatabase;
  let local: { dir: string; dispose: () => void };
  let run = 0;
  let prefix: string;
  const provider = (): S3ProviderConfig => ({ provider: 'aws-s3', baseUrl: null, rootPath: prefix, bucket, acl: 'public-read', region: 'us-east-1', endpoint, forcePathStyle: true, credentials });

  beforeEach(async () => {
    ctx = await openExampleDatabase(client);
    local = scratchDir('capi-import-s3-local');
    prefix = `import-${client}-${++run}`;
  });
  afterEach(async () => {
    await ctx.close();
    local.dispose();
  });

  it('stores every asset and format in the bucket under its archived name, and the rows point there', async () => {
    const report = await runImport(ctx.db, ctx.model, join(local.dir, 'uploads'), { uploadProvider: provider() });
    expect(report.counts.assets).toBe(fixtureTotals.assets);
    const content = await bucketContent(prefix);
    expect(Object.keys(content).sort()).toEqual([...archived.keys()].map((name) => `${prefix}/${name}`).sort());
    for (const [name, bytes] of archived) expect(content[`${prefix}/${name}`]).toBe(bytes.toString('base64'));

    // Every URL a file row holds (original and formats) is an object of the bucket, served with the row's type.
    const rows = await ctx.db.query<{ url: string; provider: string; hash: string; mime: string; formats: unknown }>('SELECT url, provider, hash, mime, formats FROM files');
    expect(rows.length).toBeGreaterThan(0);
    let urls = 0;
    for (const row of rows) {
      expect(row.provider).toBe('aws-s3');
      const formats = (typeof row.formats === 'string' ? JSON.parse(row.formats) : (row.formats ?? {})) as Record<string, { url: string }>;
      for (const url of [row.url, ...Object.values(formats).map((format) => format.url)]) {
        expect(url.startsWith(`${endpoint}/${bucket}/${prefix}/`)).toBe(true);
        const served = await fetch(url);
        expect(served.status).toBe(200);
        expect(served.headers.get('content-type')).toBe(row.mime);
        urls++;
      }
      expect(row.url).toMatch(new RegExp(`/${row.hash}\\.[a-z]+$`));
    }
    expect(urls).toBe(fixtureTotals.assets);
  });

  it('a failing import leaves an empty bucket empty', async () => {
    await expect(runImport(failingCommit(ctx.db), ctx.model, join(local.dir, 'uploads'), { uploadProvider: provider() })).rejects.toThrow('simulated commit failure');
    expect(await bucketContent(prefix)).toEqual({});
    const [row] = await ctx.db.query<{ n: unknown }>('SELECT count(*) AS n FROM files');
    expect(Number(row?.n)).toBe(0);
  });

  it('a failing --force import over imported content puts back the objects it replaced', async () => {
    await runImport(ctx.db, ctx.model, join(local.dir, 'uploads'), { uploadProvider: provider() });
    // One object changed since (a replacement through the API): the failed import must not lose it.
    const [first] = [...archived.keys()];
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: `${prefix}/${String(first)}`, Body: 'edited since', ContentType: 'text/plain' }));
    const before = await bucketContent(prefix);
    await expect(runImport(failingCommit(ctx.db), ctx.model, join(local.dir, 'uploads'), { uploadProvider: provider(), force: true })).rejects.toThrow('simulated commit failure');
    expect(await bucketContent(prefix)).toEqual(before);
    expect(before[`${prefix}/${String(first)}`]).toBe(Buffer.from('edited since').toString('base64'));
  });

  it('capi export reads the objects back from the bucket: the archive has every asset, byte for byte', async () => {
    await runImport(ctx.db, ctx.model, join(local.dir, 'uploads'), { uploadProvider: provider() });
    // Nothing in the local folder: the bytes can only come from the bucket.
    const file = join(local.dir, 'backup.tar');
    const result = await exportArchive({ file, db: ctx.db, model: ctx.model, uploadDir: join(local.dir, 'uploads'), uploadProvider: provider(), compress: false });
    expect(result.missingAssets).toEqual([]);
    expect(result.assets).toBe(fixtureTotals.assets);
    const exported = await archivedAssets(file);
    expect([...exported.keys()].sort()).toEqual([...archived.keys()].sort());
    for (const [name, bytes] of archived) expect(exported.get(name)?.equals(bytes)).toBe(true);
  });

  it('capi export of an aws-s3 project names the objects the bucket lacks and the rows of another provider', async () => {
    await runImport(ctx.db, ctx.model, join(local.dir, 'uploads'), { uploadProvider: provider() });
    const [gone = ''] = [...archived.keys()];
    await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: `${prefix}/${gone}` }));
    const [other] = await ctx.db.query<{ id: number; hash: string; ext: string }>('SELECT id, hash, ext FROM files ORDER BY id DESC LIMIT 1');
    await ctx.db.execute("UPDATE files SET provider = 'local' WHERE id = ?", [Number(other?.id)]);
    const result = await exportArchive({ file: join(local.dir, 'partial.tar'), db: ctx.db, model: ctx.model, uploadDir: join(local.dir, 'uploads'), uploadProvider: provider(), compress: false });
    expect(result.missingAssets).toContain(gone);
    expect(result.missingAssets).toContain(`${String(other?.hash)}${String(other?.ext)} (provider local)`);
  });
});
