/**
 * The upload plugin over real HTTP: multipart requests made with fetch + FormData against an app
 * built by createApp, on SQLite and PostgreSQL, with images made here (zlib PNGs as the
 * conformance seed makes them, JPEGs from sharp).
 */
import { noCaching } from '../cache/config.ts';
import { middlewaresConfig } from '../middlewares/config.ts';
import { defaultRateLimits } from '../rate-limit/config.ts';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import http, { type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import type { AppConfig } from '../config.ts';
import type { Database, Queryable, SqlValue } from '../database.ts';
import { DOCUMENT_ID_PATTERN } from '../document-id.ts';
import { ForbiddenError } from '../errors.ts';
import { createLogger } from '../logger.ts';
import { createApp } from '../server.ts';
import { uploadMount, type UploadAction, type UploadMountOptions } from './routes.ts';
import { DEFAULT_QUERY_BUDGET } from '../engine/budget.ts';

// ------------------------------------------------------------------ files made by the tests

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(buffer: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buffer) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** A deterministic RGB PNG, byte for byte what the conformance seed uploads. */
function png(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const raw = Buffer.alloc((width * 3 + 1) * height);
  let o = 0;
  for (let y = 0; y < height; y++) {
    raw[o++] = 0;
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      raw[o++] = r;
      raw[o++] = g;
      raw[o++] = b;
    }
  }
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

const RED_PNG = png(4, 4, () => [220, 20, 60]);
const BLUE_PNG = png(6, 3, () => [30, 144, 255]);
const GRADIENT_PNG = png(320, 200, (x, y) => [x % 256, y % 256, (x + y) % 256]);
const JPEG_16x12 = Buffer.from(
  '/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAMABADASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAT/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAABv/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AKQAI2f/2Q==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.1\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
const SVG = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><script>alert(document.domain)</script><rect width="40" height="20" fill="red"/></svg>\n',
);
const HTML = Buffer.from('<!DOCTYPE html><html><body><script>alert(1)</script></body></html>\n');

async function jpeg(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 10, g: 100, b: 200 } } })
    .jpeg()
    .toBuffer();
}

/** An image of pseudo-random pixels (they do not compress away), in a given format. */
async function noise(width: number, height: number, format: 'jpeg' | 'png' | 'gif' | 'webp' | 'tiff' | 'avif'): Promise<Buffer> {
  const pixels = Buffer.from(Array.from({ length: width * height * 3 }, (_, i) => (i * 7919) % 251));
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .toFormat(format)
    .toBuffer();
}

/** A PNG whose chunks are all well formed (lengths, CRCs, IEND) but whose pixel stream stops early. */
function pngWithTruncatedPixels(width: number, height: number): Buffer {
  const whole = png(width, height, (x, y) => [(x * 37) % 256, (y * 91) % 256, (x * y) % 256]);
  const header = whole.subarray(8, 8 + 25);
  const idatLength = whole.readUInt32BE(8 + 25);
  const idat = whole.subarray(8 + 25 + 8, 8 + 25 + 8 + idatLength);
  return Buffer.concat([whole.subarray(0, 8), header, chunk('IDAT', idat.subarray(0, Math.floor(idat.length / 2))), chunk('IEND', Buffer.alloc(0))]);
}

/** A valid 1-bit PNG of 20000x20000 blank pixels: 48 KB on the wire, 400 megapixels decoded. */
function pixelBomb(): Buffer {
  const side = 20_000;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1;
  header[9] = 0;
  const rows = Buffer.alloc((Math.ceil(side / 8) + 1) * side);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** A ZIP archive of stored (uncompressed) entries. */
function zip(entries: Record<string, Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of Object.entries(entries)) {
    const fileName = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const cut = (bytes: Buffer, fraction = 0.5): Buffer => bytes.subarray(0, Math.floor(bytes.length * fraction));

// ------------------------------------------------------------------ HTTP helpers

interface Part {
  readonly name: string;
  readonly type: string;
  readonly bytes: Buffer;
  /** Form field; default `files`. */
  readonly field?: string;
}

function form(parts: readonly Part[], fileInfo?: unknown): FormData {
  const data = new FormData();
  for (const part of parts) data.append(part.field ?? 'files', new Blob([new Uint8Array(part.bytes)], { type: part.type }), part.name);
  if (fileInfo !== undefined) data.append('fileInfo', typeof fileInfo === 'string' ? fileInfo : JSON.stringify(fileInfo));
  return data;
}

interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

async function call(url: string, init: RequestInit = {}): Promise<Reply> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: response.status, headers: response.headers, body };
}

type Json = Record<string, unknown>;

function asFiles(body: unknown): Json[] {
  expect(Array.isArray(body)).toBe(true);
  return body as Json[];
}

function errorOf(reply: Reply): { status: number; name: string; message: string; details: Json } {
  const body = reply.body as { data: unknown; error: { status: number; name: string; message: string; details: Json } };
  expect(body.data).toBeNull();
  return body.error;
}

const mediaKeys = [
  'id',
  'documentId',
  'name',
  'alternativeText',
  'caption',
  'focalPoint',
  'width',
  'height',
  'formats',
  'hash',
  'ext',
  'mime',
  'size',
  'url',
  'previewUrl',
  'provider',
  'provider_metadata',
  'createdAt',
  'updatedAt',
  'publishedAt',
];
const formatKeys = ['name', 'hash', 'ext', 'mime', 'path', 'width', 'height', 'size', 'sizeInBytes', 'url'];
const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Every file under `dir`, relative, the work folder's emptiness included. */
function listTree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

// ------------------------------------------------------------------ the app

interface TestApp {
  readonly url: string;
  readonly root: string;
  readonly uploads: string;
  close(): Promise<void>;
}

const scratch = mkdtempSync(join(tmpdir(), 'capi-upload-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let appCounter = 0;

function config(projectRoot: string, upload: Partial<AppConfig['plugins']['upload']>): AppConfig {
  return {
    projectRoot,
    server: { host: '127.0.0.1', port: 0, jsonLimit: 1_048_576, proxy: false, shutdown: { drainMs: 0, timeoutMs: 10_000 }, metrics: { enabled: false, path: '/metrics' } },
    database: { client: 'sqlite', filename: ':memory:', label: ':memory:' },
    api: { rest: { defaultLimit: 25, maxLimit: 100, withCount: true }, query: DEFAULT_QUERY_BUDGET },
    plugins: {
      graphql: { defaultLimit: 10, maxLimit: 20, depthLimit: 20, maxAliases: 30, maxCost: 50_000, amountLimit: 100, landingPage: true, introspection: true, hideSchemaDetailsFromClientErrors: false },
      i18n: { defaultLocale: 'en', locales: [{ code: 'en', name: 'English (en)' }] },
      upload: { sizeLimit: 209_715_200, allowedMimeTypes: null, provider: { provider: 'local' }, ...upload },
      usersPermissions: {
        jwt: { expiresIn: 2_592_000 },
        register: { allowedFields: [] },
        advanced: { allowRegister: true, emailConfirmation: false, defaultRole: 'authenticated', emailResetPasswordUrl: null, emailConfirmationRedirection: null },
        ratelimit: { enabled: true, max: 5, intervalMs: 300_000 },
        emailTemplates: {},
      },
      email: { provider: 'log', defaultFrom: null, defaultReplyTo: null },
      documentation: { enabled: false },
    },
    permissions: { public: [], authenticated: [] },
    webhooks: [],
    middlewares: middlewaresConfig({ file: 'config/middlewares.json', path: '' }, undefined),
    rateLimits: defaultRateLimits,
    cache: noCaching,
  };
}

async function startApp(example: ExampleDatabase, options: { upload?: Partial<AppConfig['plugins']['upload']>; db?: Database; mount?: UploadMountOptions } = {}): Promise<TestApp> {
  const root = join(scratch, `project-${++appCounter}`);
  mkdirSync(root, { recursive: true });
  const context = { config: config(root, options.upload ?? {}), db: options.db ?? example.db, model: example.model, logger: createLogger({ level: 'silent' }) };
  const app = createApp({ ...context, mounts: await uploadMount(context, options.mount) });
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    root,
    uploads: join(root, 'public', 'uploads'),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Fails the n-th `INSERT INTO files` (counting from 1) run through the database or any of its transactions. */
function failingOnInsert(db: Database, failOn: number): Database {
  let inserts = 0;
  const wrap = <T extends Queryable>(target: T): T =>
    new Proxy(target, {
      get(object, property) {
        // An INSERT runs through query or execute, as the database's Dialect.insertedId says.
        if (property === 'execute' || property === 'query') {
          return async (sql: string, params?: readonly SqlValue[]) => {
            if (/^\s*INSERT INTO files\b/.test(sql) && ++inserts === failOn) throw new Error('simulated database failure');
            return property === 'query' ? object.query(sql, params) : object.execute(sql, params);
          };
        }
        if (property === 'transaction') {
          return <R>(fn: (tx: Queryable) => Promise<R>) => object.transaction((tx) => fn(wrap(tx)));
        }
        const value: unknown = Reflect.get(object, property, object);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
      },
    });
  return wrap(db);
}

// ------------------------------------------------------------------ the tests

describe.each(clients)('upload plugin on %s', (client) => {
  let example: ExampleDatabase;
  let app: TestApp;

  const countRows = async (table: string): Promise<number> => {
    const rows = await example.db.query<{ n: unknown }>(`SELECT count(*) AS n FROM ${table}`);
    return Number(rows[0]?.n);
  };
  const upload = (target: TestApp, parts: readonly Part[], fileInfo?: unknown, query = ''): Promise<Reply> => call(`${target.url}/api/upload${query}`, { method: 'POST', body: form(parts, fileInfo) });
  const uploadOne = async (part: Part, fileInfo?: unknown): Promise<Json> => {
    const reply = await upload(app, [part], fileInfo);
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const [file] = asFiles(reply.body);
    expect(file).toBeDefined();
    return file as Json;
  };
  /** Upload folder holds exactly these stored files (the work folder empty). */
  const expectStored = (target: TestApp, names: readonly string[]): void => {
    expect(listTree(target.uploads)).toEqual([...names].sort());
  };

  beforeAll(async () => {
    example = await openExampleDatabase(client);
    app = await startApp(example);
  });
  afterAll(async () => {
    await app?.close();
    await example?.close();
  });

  describe('uploads in the conformance seed shapes', () => {
    it('stores a small PNG with its fileInfo and returns every media field in order', async () => {
      const before = Date.now();
      const reply = await upload(app, [{ name: 'red.png', type: 'image/png', bytes: RED_PNG }], {
        name: 'red.png',
        alternativeText: 'A red square',
        caption: 'Red',
      });
      expect(reply.status).toBe(201);
      expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
      const files = asFiles(reply.body);
      expect(files).toHaveLength(1);
      const file = files[0] as Json;
      expect(Object.keys(file)).toEqual([...mediaKeys, 'isUrlSigned']);
      expect(file.isUrlSigned).toBe(false);
      const hash = String(file.hash);
      expect(hash).toMatch(/^red_[0-9a-f]{10}$/);
      expect(file).toMatchObject({
        name: 'red.png',
        alternativeText: 'A red square',
        caption: 'Red',
        focalPoint: null,
        width: 4,
        height: 4,
        formats: null,
        ext: '.png',
        mime: 'image/png',
        size: Math.round((RED_PNG.length / 1000) * 100) / 100,
        url: `/uploads/${hash}.png`,
        previewUrl: null,
        provider: 'local',
        provider_metadata: null,
      });
      expect(file.id).toEqual(expect.any(Number));
      expect(String(file.documentId)).toMatch(DOCUMENT_ID_PATTERN);
      for (const key of ['createdAt', 'updatedAt', 'publishedAt']) {
        expect(String(file[key])).toMatch(iso);
        expect(Date.parse(String(file[key]))).toBeGreaterThanOrEqual(before - 5);
      }
      expect(file.updatedAt).toBe(file.createdAt);
      expect(file.publishedAt).toBe(file.createdAt);
      expect(readFileSync(join(app.uploads, `${hash}.png`))).toEqual(RED_PNG);

      const served = await fetch(`${app.url}${String(file.url)}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(served.headers.get('content-security-policy')).toBe("default-src 'none'");
      expect(served.headers.get('content-disposition')).toBeNull();
      expect(Buffer.from(await served.arrayBuffer())).toEqual(RED_PNG);
    });

    it('leaves alternativeText and caption null without fileInfo', async () => {
      const file = await uploadOne({ name: 'blue.png', type: 'image/png', bytes: BLUE_PNG });
      expect(file).toMatchObject({ name: 'blue.png', alternativeText: null, caption: null, width: 6, height: 3, formats: null });
      expect(String(file.hash)).toMatch(/^blue_[0-9a-f]{10}$/);
    });

    it('makes the thumbnail of the 320x200 gradient exactly as Strapi does', async () => {
      const file = await uploadOne({ name: 'large-gradient.png', type: 'image/png', bytes: GRADIENT_PNG }, { alternativeText: 'A gradient large enough for a thumbnail', caption: 'Gradient' });
      const hash = String(file.hash);
      expect(hash).toMatch(/^large_gradient_[0-9a-f]{10}$/);
      expect(file).toMatchObject({ name: 'large-gradient.png', width: 320, height: 200, size: Math.round((GRADIENT_PNG.length / 1000) * 100) / 100 });
      const formats = file.formats as Record<string, Json>;
      expect(Object.keys(formats)).toEqual(['thumbnail']);
      const thumbnail = formats.thumbnail as Json;
      expect(Object.keys(thumbnail)).toEqual(formatKeys);
      const bytes = statSync(join(app.uploads, `thumbnail_${hash}.png`)).size;
      expect(thumbnail).toEqual({
        name: 'thumbnail_large-gradient.png',
        hash: `thumbnail_${hash}`,
        ext: '.png',
        mime: 'image/png',
        path: null,
        width: 245,
        height: 153,
        size: Math.round((bytes / 1000) * 100) / 100,
        sizeInBytes: bytes,
        url: `/uploads/thumbnail_${hash}.png`,
      });
      const metadata = await sharp(join(app.uploads, `thumbnail_${hash}.png`)).metadata();
      expect([metadata.format, metadata.width, metadata.height]).toEqual(['png', 245, 153]);
    });

    it('stores the 16x12 JPEG and the PDF (no dimensions, no formats)', async () => {
      const photo = await uploadOne({ name: 'photo.jpg', type: 'image/jpeg', bytes: JPEG_16x12 }, { alternativeText: 'An orange photo', caption: 'Photo' });
      expect(photo).toMatchObject({ name: 'photo.jpg', ext: '.jpg', mime: 'image/jpeg', width: 16, height: 12, formats: null, size: 0.27 });
      const manual = await uploadOne({ name: 'manual.pdf', type: 'application/pdf', bytes: PDF }, { caption: 'Product manual' });
      expect(manual).toMatchObject({ name: 'manual.pdf', ext: '.pdf', mime: 'application/pdf', width: null, height: null, formats: null, caption: 'Product manual', alternativeText: null });
      const served = await fetch(`${app.url}${String(manual.url)}`);
      expect(served.headers.get('content-type')).toBe('application/pdf');
      expect(served.headers.get('content-disposition')).toBeNull();
    });

    it('uploads several files at once, with one fileInfo per file, in order', async () => {
      const reply = await upload(
        app,
        [
          { name: 'one.png', type: 'image/png', bytes: RED_PNG },
          { name: 'two.jpg', type: 'image/jpeg', bytes: JPEG_16x12 },
          { name: 'three.pdf', type: 'application/pdf', bytes: PDF },
        ],
        [{ name: 'first.png', alternativeText: 'First' }, { caption: 'Second' }],
      );
      expect(reply.status).toBe(201);
      const files = asFiles(reply.body);
      expect(files.map((f) => [f.name, f.alternativeText, f.caption, f.mime])).toEqual([
        ['first.png', 'First', null, 'image/png'],
        ['two.jpg', null, 'Second', 'image/jpeg'],
        ['three.pdf', null, null, 'application/pdf'],
      ]);
      expect(String(files[0]?.hash)).toMatch(/^first_[0-9a-f]{10}$/);
      const ids = files.map((f) => Number(f.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    });

    it('accepts fileInfo sent as one field per file', async () => {
      const data = form([
        { name: 'a.png', type: 'image/png', bytes: RED_PNG },
        { name: 'b.png', type: 'image/png', bytes: BLUE_PNG },
      ]);
      data.append('fileInfo', JSON.stringify({ caption: 'A' }));
      data.append('fileInfo', JSON.stringify({ caption: 'B' }));
      const reply = await call(`${app.url}/api/upload`, { method: 'POST', body: data });
      expect(reply.status).toBe(201);
      expect(asFiles(reply.body).map((f) => f.caption)).toEqual(['A', 'B']);
    });

    it('serves POST /upload with the same handler', async () => {
      const reply = await call(`${app.url}/upload`, { method: 'POST', body: form([{ name: 'legacy.png', type: 'image/png', bytes: RED_PNG }]) });
      expect(reply.status).toBe(201);
      expect(asFiles(reply.body)[0]?.name).toBe('legacy.png');
    });
  });

  describe('image formats', () => {
    it('makes thumbnail, large, medium and small of a 1200x800 JPEG, in that order', async () => {
      const file = await uploadOne({ name: 'Big Photo.jpg', type: 'image/jpeg', bytes: await jpeg(1200, 800) });
      const hash = String(file.hash);
      expect(hash).toMatch(/^Big_Photo_[0-9a-f]{10}$/);
      const formats = file.formats as Record<string, Json>;
      expect(Object.keys(formats)).toEqual(['thumbnail', 'large', 'medium', 'small']);
      expect(Object.values(formats).map((f) => [f.name, f.width, f.height, f.mime, f.ext])).toEqual([
        ['thumbnail_Big Photo.jpg', 234, 156, 'image/jpeg', '.jpg'],
        ['large_Big Photo.jpg', 1000, 667, 'image/jpeg', '.jpg'],
        ['medium_Big Photo.jpg', 750, 500, 'image/jpeg', '.jpg'],
        ['small_Big Photo.jpg', 500, 333, 'image/jpeg', '.jpg'],
      ]);
      for (const [name, format] of Object.entries(formats)) {
        const path = join(app.uploads, `${name}_${hash}.jpg`);
        expect(format.url).toBe(`/uploads/${name}_${hash}.jpg`);
        expect(format.sizeInBytes).toBe(statSync(path).size);
        expect((await sharp(path).metadata()).format).toBe('jpeg');
      }
    });

    it('makes a format only when the original is larger than it', async () => {
      const cases: Array<[number, number, string[]]> = [
        [600, 400, ['thumbnail', 'small']],
        [500, 300, ['thumbnail']],
        [400, 501, ['thumbnail', 'small']],
        [246, 10, ['thumbnail']],
        [10, 157, ['thumbnail']],
        [245, 156, []],
        [751, 20, ['thumbnail', 'medium', 'small']],
      ];
      for (const [width, height, expected] of cases) {
        const file = await uploadOne({ name: `${width}x${height}.jpg`, type: 'image/jpeg', bytes: await jpeg(width, height) });
        expect([width, height, Object.keys((file.formats ?? {}) as Json)]).toEqual([width, height, expected]);
        expect([file.width, file.height]).toEqual([width, height]);
      }
    });
  });

  describe('reading and listing', () => {
    it('lists every file by id, each with isUrlSigned: false last', async () => {
      const reply = await call(`${app.url}/api/upload/files`);
      expect(reply.status).toBe(200);
      const files = asFiles(reply.body);
      const rows = await example.db.query<{ id: unknown }>('SELECT id FROM files ORDER BY id');
      expect(files.map((f) => f.id)).toEqual(rows.map((r) => Number(r.id)));
      for (const file of files) {
        expect(Object.keys(file)).toEqual([...mediaKeys, 'isUrlSigned']);
        expect(file.isUrlSigned).toBe(false);
      }
    });

    it('returns one file as the upload did, plus isUrlSigned', async () => {
      const created = await uploadOne({ name: 'one.png', type: 'image/png', bytes: GRADIENT_PNG }, { caption: 'c' });
      const reply = await call(`${app.url}/api/upload/files/${String(created.id)}`);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ ...created, isUrlSigned: false });
      expect(JSON.stringify(reply.body)).toBe(JSON.stringify({ ...created, isUrlSigned: false }));
    });

    it('answers 404 file.notFound for unknown and malformed ids', async () => {
      for (const id of ['999999', 'abc', '0', '-1', '1.5', '99999999999999']) {
        const reply = await call(`${app.url}/api/upload/files/${id}`);
        expect(reply.status, id).toBe(404);
        expect(reply.body).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'file.notFound', details: {} } });
      }
    });
  });

  describe('updating', () => {
    it('replaces the info of a file with ?id=N (multipart fileInfo), keeping everything else', async () => {
      const created = await uploadOne({ name: 'info.png', type: 'image/png', bytes: RED_PNG }, { alternativeText: 'old alt', caption: 'old caption' });
      await new Promise((resolve) => setTimeout(resolve, 5));
      const data = new FormData();
      data.append('fileInfo', JSON.stringify({ name: 'renamed.png', alternativeText: 'new alt' }));
      const reply = await call(`${app.url}/api/upload?id=${String(created.id)}`, { method: 'POST', body: data });
      expect(reply.status).toBe(200);
      const file = reply.body as Json;
      expect(Object.keys(file)).toEqual([...mediaKeys, 'isUrlSigned']);
      expect(file).toEqual({ ...created, name: 'renamed.png', alternativeText: 'new alt', updatedAt: file.updatedAt });
      expect(Date.parse(String(file.updatedAt))).toBeGreaterThan(Date.parse(String(created.updatedAt)));
    });

    it('takes the info as a JSON body too, and null keeps a value (Strapi)', async () => {
      const created = await uploadOne({ name: 'json.png', type: 'image/png', bytes: RED_PNG }, { caption: 'kept' });
      const reply = await call(`${app.url}/api/upload?id=${String(created.id)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ fileInfo: { alternativeText: 'alt', caption: null } }),
      });
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ name: 'json.png', alternativeText: 'alt', caption: 'kept' });
    });

    it('answers 404 for an info update of an unknown file', async () => {
      const reply = await call(`${app.url}/api/upload?id=424242`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ fileInfo: { caption: 'x' } }),
      });
      expect(reply.status).toBe(404);
      expect(errorOf(reply).message).toBe('file.notFound');
    });

    it('replaces the file itself, keeping hash, extension and URL, and swaps the formats', async () => {
      const created = await uploadOne({ name: 'swap.png', type: 'image/png', bytes: GRADIENT_PNG }, { alternativeText: 'alt' });
      const hash = String(created.hash);
      expect(existsSync(join(app.uploads, `thumbnail_${hash}.png`))).toBe(true);

      const reply = await upload(app, [{ name: 'small.png', type: 'image/png', bytes: BLUE_PNG }], { caption: 'replaced' }, `?id=${String(created.id)}`);
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      const file = reply.body as Json;
      expect(file).toMatchObject({
        id: created.id,
        documentId: created.documentId,
        hash,
        ext: '.png',
        url: created.url,
        name: 'small.png',
        alternativeText: 'alt',
        caption: 'replaced',
        width: 6,
        height: 3,
        formats: null,
        size: Math.round((BLUE_PNG.length / 1000) * 100) / 100,
      });
      expect(readFileSync(join(app.uploads, `${hash}.png`))).toEqual(BLUE_PNG);
      expect(existsSync(join(app.uploads, `thumbnail_${hash}.png`))).toBe(false);
      expect(listTree(join(app.uploads, '.tmp'))).toEqual([]);
    });

    it('refuses to replace a file with several', async () => {
      const created = await uploadOne({ name: 'x.png', type: 'image/png', bytes: RED_PNG });
      const reply = await upload(
        app,
        [
          { name: 'a.png', type: 'image/png', bytes: RED_PNG },
          { name: 'b.png', type: 'image/png', bytes: RED_PNG },
        ],
        undefined,
        `?id=${String(created.id)}`,
      );
      expect(reply.status).toBe(400);
      expect(errorOf(reply)).toMatchObject({ name: 'ValidationError', message: 'Cannot replace a file with multiple ones' });
    });
  });

  describe('deleting', () => {
    it('deletes the row, its links, the original and every format', async () => {
      const created = await uploadOne({ name: 'doomed.jpg', type: 'image/jpeg', bytes: await jpeg(800, 600) });
      const hash = String(created.hash);
      const names = [`${hash}.jpg`, ...['thumbnail', 'medium', 'small'].map((f) => `${f}_${hash}.jpg`)];
      for (const name of names) expect(existsSync(join(app.uploads, name)), name).toBe(true);
      const id = Number(created.id);
      await example.db.execute('INSERT INTO files_related_mph (file_id, related_type, related_id, field, ord) VALUES (?, ?, ?, ?, ?)', [id, 'api::article.article', 1, 'cover', 0]);
      await example.db.execute('INSERT INTO files_related_mph (file_id, related_type, related_id, field, ord) VALUES (?, ?, ?, ?, ?)', [id, 'api::product.product', 2, 'gallery', 1]);

      const reply = await call(`${app.url}/api/upload/files/${id}`, { method: 'DELETE' });
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ ...created, isUrlSigned: false });
      for (const name of names) expect(existsSync(join(app.uploads, name)), name).toBe(false);
      expect(await example.db.query('SELECT * FROM files_related_mph WHERE file_id = ?', [id])).toEqual([]);
      expect((await call(`${app.url}/api/upload/files/${id}`)).status).toBe(404);
      const again = await call(`${app.url}/api/upload/files/${id}`, { method: 'DELETE' });
      expect(again.status).toBe(404);
      expect(errorOf(again).message).toBe('file.notFound');
    });

    it('never deletes outside the upload folder, whatever the row says', async () => {
      const created = await uploadOne({ name: 'victim.png', type: 'image/png', bytes: RED_PNG });
      const outside = join(app.root, 'public', 'precious.txt');
      writeFileSync(outside, 'keep me');
      await example.db.execute('UPDATE files SET url = ?, formats = ? WHERE id = ?', [
        '/uploads/../precious.txt',
        JSON.stringify({ thumbnail: { url: '/uploads/../../public/precious.txt' } }),
        Number(created.id),
      ]);
      const reply = await call(`${app.url}/api/upload/files/${String(created.id)}`, { method: 'DELETE' });
      expect(reply.status).toBe(200);
      expect(readFileSync(outside, 'utf8')).toBe('keep me');
    });
  });

  describe('safety', () => {
    it('answers 413 above the size limit while streaming, leaving no file and no row', async () => {
      const small = await startApp(example, { upload: { sizeLimit: 10_000 } });
      try {
        const rows = await countRows('files');
        const big = Buffer.alloc(200_000, 7);
        const reply = await upload(small, [{ name: 'big.bin', type: 'application/octet-stream', bytes: big }]);
        expect(reply.status).toBe(413);
        expect(errorOf(reply)).toMatchObject({ status: 413, name: 'PayloadTooLargeError' });
        // A small first file is not kept when the second one is too large.
        const mixed = await upload(small, [
          { name: 'ok.png', type: 'image/png', bytes: RED_PNG },
          { name: 'big.bin', type: 'application/octet-stream', bytes: big },
        ]);
        expect(mixed.status).toBe(413);
        expectStored(small, []);
        expect(await countRows('files')).toBe(rows);
        // Exactly at the limit is fine.
        const exact = Buffer.concat([PDF, Buffer.alloc(10_000 - PDF.length, 32)]);
        expect((await upload(small, [{ name: 'exact.pdf', type: 'application/pdf', bytes: exact }])).status).toBe(201);
      } finally {
        await small.close();
      }
    });

    it('rejects content that does not match its declared type, leaving nothing behind', async () => {
      const target = await startApp(example);
      try {
        const rows = await countRows('files');
        const spoofs: Part[] = [
          { name: 'photo.jpg', type: 'image/jpeg', bytes: RED_PNG },
          { name: 'fake.png', type: 'image/png', bytes: Buffer.from('just text, no PNG here') },
          { name: 'vector.png', type: 'image/png', bytes: SVG },
          { name: 'vector.txt', type: 'text/plain', bytes: SVG },
          { name: 'page.svg', type: 'image/svg+xml', bytes: HTML },
          { name: 'page.txt', type: 'text/plain', bytes: HTML },
          { name: 'doc.pdf', type: 'application/pdf', bytes: JPEG_16x12 },
        ];
        for (const part of spoofs) {
          const reply = await upload(target, [part]);
          expect(reply.status, `${part.name} as ${part.type}`).toBe(400);
          expect(errorOf(reply).name).toBe('ValidationError');
        }
        // One bad file among good ones: none is kept.
        const mixed = await upload(target, [
          { name: 'good.png', type: 'image/png', bytes: RED_PNG },
          { name: 'bad.png', type: 'image/png', bytes: PDF },
        ]);
        expect(mixed.status).toBe(400);
        expectStored(target, []);
        expect(await countRows('files')).toBe(rows);
      } finally {
        await target.close();
      }
    });

    it('takes the type of the content when none is declared', async () => {
      const png = await uploadOne({ name: 'noext', type: 'application/octet-stream', bytes: RED_PNG });
      expect(png).toMatchObject({ mime: 'image/png', ext: '.png', width: 4 });
      const svg = await uploadOne({ name: 'drawing.svg', type: '', bytes: SVG });
      expect(svg).toMatchObject({ mime: 'image/svg+xml', ext: '.svg' });
    });

    it('refuses a readable signature on an unreadable image', async () => {
      const broken = Buffer.concat([RED_PNG.subarray(0, 33), Buffer.from('garbage garbage garbage')]);
      const reply = await upload(app, [{ name: 'broken.png', type: 'image/png', bytes: broken }]);
      expect(reply.status).toBe(400);
      expect(errorOf(reply).name).toBe('ValidationError');
    });

    it('refuses content that cannot be decoded with a 400 naming the file, leaving no file and no row', async () => {
      const target = await startApp(example);
      try {
        const rows = await countRows('files');
        const archive = zip({ 'readme.txt': Buffer.from('hello'), 'data.bin': Buffer.alloc(4000, 65) });
        const bigJpeg = await noise(600, 400, 'jpeg');
        const undecodable: Part[] = [
          { name: 'archive.png', type: 'image/png', bytes: cut(archive, 0.3) },
          { name: 'archive.jpg', type: 'image/jpeg', bytes: cut(archive, 0.01) },
          { name: 'archive.zip', type: 'application/zip', bytes: cut(archive, 0.3) },
          { name: 'pixels.png', type: 'image/png', bytes: pngWithTruncatedPixels(64, 64) },
          { name: 'half.png', type: 'image/png', bytes: cut(await noise(64, 64, 'png')) },
          { name: 'signature.png', type: 'image/png', bytes: RED_PNG.subarray(0, 8) },
          { name: 'gradient.png', type: 'image/png', bytes: cut(GRADIENT_PNG, 0.8) },
          { name: 'half.jpg', type: 'image/jpeg', bytes: cut(bigJpeg) },
          { name: 'small-half.jpg', type: 'image/jpeg', bytes: cut(await noise(64, 48, 'jpeg')) },
          { name: 'no-end.jpg', type: 'image/jpeg', bytes: bigJpeg.subarray(0, bigJpeg.length - 2) },
          { name: 'half.gif', type: 'image/gif', bytes: cut(await noise(64, 64, 'gif')) },
          { name: 'half.webp', type: 'image/webp', bytes: cut(await noise(64, 64, 'webp')) },
          { name: 'half.tif', type: 'image/tiff', bytes: cut(await noise(64, 64, 'tiff')) },
          { name: 'half.avif', type: 'image/avif', bytes: cut(await noise(64, 64, 'avif')) },
          { name: 'undeclared-half.jpg', type: 'application/octet-stream', bytes: cut(bigJpeg) },
        ];
        for (const part of undecodable) {
          const reply = await upload(target, [part]);
          expect(reply.status, `${part.name}: ${JSON.stringify(reply.body)}`).toBe(400);
          expect(errorOf(reply), part.name).toMatchObject({
            status: 400,
            name: 'ValidationError',
            message: expect.stringMatching(new RegExp(`^The content of "${part.name}" is truncated or corrupt: it cannot be decoded`)),
          });
        }
        const bomb = await upload(target, [{ name: 'bomb.png', type: 'image/png', bytes: pixelBomb() }]);
        expect(errorOf(bomb)).toMatchObject({ status: 400, name: 'ValidationError', message: 'The image "bomb.png" has more pixels than the 268402689 that are processed' });
        const empty = await upload(target, [{ name: 'empty.png', type: 'image/png', bytes: Buffer.alloc(0) }]);
        expect(errorOf(empty)).toMatchObject({ status: 400, name: 'ValidationError', message: 'Files are empty' });
        // A damaged file among good ones: none is kept.
        const mixed = await upload(target, [
          { name: 'good.jpg', type: 'image/jpeg', bytes: await jpeg(1200, 800) },
          { name: 'half.jpg', type: 'image/jpeg', bytes: cut(bigJpeg) },
        ]);
        expect(mixed.status).toBe(400);
        expect(errorOf(mixed).message).toBe('The content of "half.jpg" is truncated or corrupt: it cannot be decoded as image/jpeg');
        expectStored(target, []);
        expect(await countRows('files')).toBe(rows);
        // The same images whole are accepted: what is refused is the damage.
        const wholes = [
          { name: 'whole.jpg', type: 'image/jpeg', bytes: bigJpeg },
          { name: 'whole.zip', type: 'application/zip', bytes: archive },
          { name: 'whole.avif', type: 'image/avif', bytes: await noise(64, 64, 'avif') },
        ];
        for (const part of wholes) {
          expect((await upload(target, [part])).status, part.name).toBe(201);
        }
      } finally {
        await target.close();
      }
    });

    it('refuses to replace a file with one that cannot be decoded, keeping the original', async () => {
      const created = await uploadOne({ name: 'keep.png', type: 'image/png', bytes: GRADIENT_PNG });
      const before = listTree(app.uploads);
      const row = await example.db.query('SELECT * FROM files WHERE id = ?', [Number(created.id)]);
      const reply = await upload(app, [{ name: 'broken.png', type: 'image/png', bytes: pngWithTruncatedPixels(320, 200) }], undefined, `?id=${String(created.id)}`);
      expect(reply.status).toBe(400);
      expect(errorOf(reply).message).toBe('The content of "broken.png" is truncated or corrupt: it cannot be decoded as image/png');
      expect(listTree(app.uploads)).toEqual(before);
      expect(readFileSync(join(app.uploads, `${String(created.hash)}.png`))).toEqual(GRADIENT_PNG);
      expect(await example.db.query('SELECT * FROM files WHERE id = ?', [Number(created.id)])).toEqual(row);
    });

    it('enforces allowedMimeTypes on the declared and on the detected type', async () => {
      const target = await startApp(example, { upload: { allowedMimeTypes: ['image/*', 'text/plain'] } });
      try {
        expect((await upload(target, [{ name: 'ok.png', type: 'image/png', bytes: RED_PNG }])).status).toBe(201);
        const declared = await upload(target, [{ name: 'm.pdf', type: 'application/pdf', bytes: PDF }]);
        expect(declared.status).toBe(400);
        expect(errorOf(declared).message).toBe('File type application/pdf is not allowed');
        const detected = await upload(target, [{ name: 'm.bin', type: 'application/octet-stream', bytes: PDF }]);
        expect(detected.status).toBe(400);
        expect(errorOf(detected).message).toBe('File type application/pdf is not allowed');
        expect(listTree(target.uploads).filter((name) => !name.startsWith('ok_'))).toEqual([]);
      } finally {
        await target.close();
      }
    });

    it('sanitizes file names and keeps every stored path inside the upload folder', async () => {
      const target = await startApp(example);
      try {
        const traversal = await upload(target, [{ name: '../../../evil.png', type: 'image/png', bytes: RED_PNG }]);
        expect(traversal.status).toBe(201);
        const [file] = asFiles(traversal.body);
        expect(file?.name).toBe('evil.png');
        expect(String(file?.hash)).toMatch(/^evil_[0-9a-f]{10}$/);

        const one = async (name: string, fileInfo?: unknown): Promise<Json> => {
          const reply = await upload(target, [{ name, type: 'image/png', bytes: RED_PNG }], fileInfo);
          expect(reply.status, JSON.stringify(reply.body)).toBe(201);
          return asFiles(reply.body)[0] as Json;
        };
        expect((await one('..\\..\\windows\\boot.png')).name).toBe('boot.png');
        // Control characters are stripped (a NUL is refused outright: no column can hold one).
        expect((await one('x.png', { name: '../../etc/pass\u0007wd\u202e.png' })).name).toBe('passwd.png');
        expect((await one('x.png', { name: '/etc/passwd' })).name).toBe('passwd');

        const dots = await one('x.png', { name: '..' });
        expect(dots.name).toBe('file');
        expect(String(dots.hash)).toMatch(/^file_[0-9a-f]{10}$/);
        expect(dots.ext).toBe('.png');

        const long = await one(`${'a'.repeat(400)}.png`);
        expect(String(long.name)).toHaveLength(255);
        expect(String(long.name).endsWith('.png')).toBe(true);
        expect(String(long.hash).length).toBeLessThanOrEqual(111);

        const unicode = await one('Crème brûlée & Café.png');
        expect(unicode.name).toBe('Crème brûlée & Café.png');
        expect(String(unicode.hash)).toMatch(/^Creme_brulee_and_Cafe_[0-9a-f]{10}$/);

        for (const stored of listTree(target.uploads)) expect(stored).toMatch(/^[A-Za-z0-9_]+\.png$/);
        expect(existsSync(join(target.root, 'evil.png'))).toBe(false);
        expect(existsSync(join(scratch, 'evil.png'))).toBe(false);
      } finally {
        await target.close();
      }
    });

    it('serves SVG and HTML as attachments with nosniff and a closed CSP', async () => {
      const svg = await uploadOne({ name: 'logo.svg', type: 'image/svg+xml', bytes: SVG });
      expect(svg).toMatchObject({ mime: 'image/svg+xml', ext: '.svg', formats: null });
      const html = await uploadOne({ name: 'page.html', type: 'text/html', bytes: HTML });
      for (const file of [svg, html]) {
        const served = await fetch(`${app.url}${String(file.url)}`);
        expect(served.status).toBe(200);
        expect(served.headers.get('content-disposition')).toBe('attachment');
        expect(served.headers.get('x-content-type-options')).toBe('nosniff');
        expect(served.headers.get('content-security-policy')).toBe("default-src 'none'");
      }
      expect((await fetch(`${app.url}${String(svg.url)}`)).headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    });

    it('never serves the work folder or anything outside the upload folder', async () => {
      // Beside public/ (whose other files strapi::public serves at the root, as Strapi does).
      writeFileSync(join(app.root, 'secret.txt'), 'secret');
      mkdirSync(join(app.uploads, '.tmp', 'work-left'), { recursive: true });
      writeFileSync(join(app.uploads, '.tmp', 'work-left', 'partial'), 'partial');
      for (const path of ['/uploads/.tmp/work-left/partial', '/uploads/..%2f..%2fsecret.txt', '/uploads/%2e%2e/%2e%2e/secret.txt', '/uploads/', '/uploads/.tmp/']) {
        const response = await fetch(`${app.url}${path}`);
        expect(response.status, path).toBe(404);
        expect(await response.text()).not.toContain('secret');
      }
      rmSync(join(app.uploads, '.tmp', 'work-left'), { recursive: true });
    });

    it('answers malformed requests with 400 ValidationError envelopes, never 500', async () => {
      const post = (body: string | FormData, contentType?: string): Promise<Reply> =>
        call(`${app.url}/api/upload`, { method: 'POST', body, ...(contentType === undefined ? {} : { headers: { 'content-type': contentType } }) });
      const cases: Array<[string, Promise<Reply>, string | RegExp]> = [
        ['no boundary', post('whatever', 'multipart/form-data'), /multipart/i],
        ['truncated', post('--xyz\r\nContent-Disposition: form-data; name="files"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabc', 'multipart/form-data; boundary=xyz'), /multipart/i],
        ['garbage', post('\u0000\u0001garbage', 'multipart/form-data; boundary=xyz'), /multipart/i],
        ['no files', post(form([], { caption: 'x' })), 'Files are empty'],
        ['json without id', post(JSON.stringify({ fileInfo: {} }), 'application/json'), 'Files are empty'],
        ['bad fileInfo JSON', post(form([{ name: 'a.png', type: 'image/png', bytes: RED_PNG }], '{not json')), 'fileInfo is not valid JSON'],
        ['fileInfo of the wrong type', post(form([{ name: 'a.png', type: 'image/png', bytes: RED_PNG }], { name: 12 })), /fileInfo\.name must be a `string` type/],
        ['fileInfo not an object', post(form([{ name: 'a.png', type: 'image/png', bytes: RED_PNG }], '"text"')), /must be a `object` type/],
        ['more fileInfo than files', post(form([{ name: 'a.png', type: 'image/png', bytes: RED_PNG }], [{}, {}])), /fileInfo has 2 entries for 1 file/],
        ['another file field', post(form([{ name: 'a.png', type: 'image/png', bytes: RED_PNG, field: 'file' }])), /Unexpected file field "file"/],
        ['an empty file', post(form([{ name: 'empty.png', type: 'image/png', bytes: Buffer.alloc(0) }])), 'Files are empty'],
      ];
      const rows = await countRows('files');
      const stored = listTree(app.uploads);
      for (const [label, pending, message] of cases) {
        const reply = await pending;
        expect(reply.status, `${label}: ${JSON.stringify(reply.body)}`).toBe(400);
        const error = errorOf(reply);
        expect(error.name, label).toBe('ValidationError');
        if (typeof message === 'string') expect(error.message, label).toBe(message);
        else expect(error.message, label).toMatch(message);
      }
      expect(await countRows('files')).toBe(rows);
      expect(listTree(app.uploads)).toEqual(stored);
    });

    it('removes the partial file of a client that goes away mid-upload', async () => {
      const target = await startApp(example);
      try {
        const rows = await countRows('files');
        const request = http.request(`${target.url}/api/upload`, {
          method: 'POST',
          headers: { 'content-type': 'multipart/form-data; boundary=xyz', 'content-length': String(10_000_000) },
        });
        request.on('error', () => undefined);
        request.write('--xyz\r\nContent-Disposition: form-data; name="files"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n');
        request.write(RED_PNG);
        request.write(Buffer.alloc(200_000, 1));
        // The part is being streamed to disk...
        await vi.waitFor(() => expect(listTree(join(target.uploads, '.tmp')).length).toBeGreaterThan(0), { timeout: 5_000 });
        request.destroy();
        // ...and is gone once the server notices the client left.
        await vi.waitFor(() => expect(listTree(target.uploads)).toEqual([]), { timeout: 5_000 });
        expect(await countRows('files')).toBe(rows);
      } finally {
        await target.close();
      }
    });

    it('keeps neither rows nor files when the database fails mid-way', async () => {
      const broken = await startApp(example, { db: failingOnInsert(example.db, 2) });
      try {
        const rows = await countRows('files');
        const reply = await upload(broken, [
          { name: 'first.jpg', type: 'image/jpeg', bytes: await jpeg(600, 400) },
          { name: 'second.png', type: 'image/png', bytes: RED_PNG },
        ]);
        expect(reply.status).toBe(500);
        expect(reply.body).toEqual({ data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error', details: {} } });
        expect(await countRows('files')).toBe(rows);
        expectStored(broken, []);
      } finally {
        await broken.close();
      }
    });
  });

  describe('hooks', () => {
    it('asks authorize for each action, and its ForbiddenError is a 403', async () => {
      const asked: UploadAction[] = [];
      const target = await startApp(example, {
        mount: {
          authorize: (action) => {
            asked.push(action);
            if (action === 'plugin::upload.content-api.destroy') throw new ForbiddenError();
          },
        },
      });
      try {
        const created = asFiles((await upload(target, [{ name: 'a.png', type: 'image/png', bytes: RED_PNG }])).body)[0] as Json;
        await call(`${target.url}/api/upload/files`);
        await call(`${target.url}/api/upload/files/${String(created.id)}`);
        const denied = await call(`${target.url}/api/upload/files/${String(created.id)}`, { method: 'DELETE' });
        expect(denied.status).toBe(403);
        expect(denied.body).toEqual({ data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } });
        expect(asked).toEqual(['plugin::upload.content-api.upload', 'plugin::upload.content-api.find', 'plugin::upload.content-api.findOne', 'plugin::upload.content-api.destroy']);
        expect(existsSync(join(target.uploads, `${String(created.hash)}.png`))).toBe(true);
      } finally {
        await target.close();
      }
    });

    it('refuses an upload before reading its body when authorize says no', async () => {
      const target = await startApp(example, {
        mount: {
          authorize: () => {
            throw new ForbiddenError();
          },
        },
      });
      try {
        const reply = await upload(target, [{ name: 'a.png', type: 'image/png', bytes: RED_PNG }]);
        expect(reply.status).toBe(403);
        expectStored(target, []);
      } finally {
        await target.close();
      }
    });

    it('hands the list query to listFiles and adds isUrlSigned', async () => {
      const seen: string[] = [];
      const target = await startApp(example, {
        mount: {
          listFiles: async (query) => {
            seen.push(query.raw);
            return [{ id: 1, documentId: 'x', name: 'picked.png', mime: 'image/png' }];
          },
        },
      });
      try {
        const reply = await call(`${target.url}/api/upload/files?filters[mime][$eq]=image/png&fields[0]=name`);
        expect(reply.status).toBe(200);
        expect(reply.body).toEqual([{ id: 1, documentId: 'x', name: 'picked.png', mime: 'image/png', isUrlSigned: false }]);
        expect(seen).toEqual(['filters[mime][$eq]=image/png&fields[0]=name']);
      } finally {
        await target.close();
      }
    });
  });
});
