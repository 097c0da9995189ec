/**
 * Strapi's `aws-s3` provider on any S3-compatible server: each file is one object
 * `<rootPath>/<hash><ext>` in the bucket (formats alike), written with one PutObject of known
 * length straight from the work folder, copied out with GetObject (a replacement's backup), and
 * deleted with DeleteObject. URLs are built as
 * `@strapi/provider-upload-aws-s3` builds them: `<baseUrl>/<key>` when a base URL is configured,
 * the object's own URL otherwise (path style `<endpoint>/<bucket>/<key>` with `forcePathStyle`,
 * virtual-hosted `https://<bucket>.<endpoint host>/<key>` without).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, NoSuchKey, NotFound, PutObjectCommand, S3Client, S3ServiceException, type ObjectCannedACL } from '@aws-sdk/client-s3';
import { ConfigError } from '../config-check.ts';
import type { S3ProviderConfig } from './provider-config.ts';
import type { PutMode, StoredEntry, UploadProvider } from './provider.ts';
import { isStoredFileName } from './safety.ts';

/** AWS's region when neither the config nor AWS_REGION names one (the SDK would refuse to start). */
const fallbackRegion = 'us-east-1';

export class S3Provider implements UploadProvider {
  readonly name = 'aws-s3';
  private readonly client: S3Client;
  private readonly prefix: string;
  private readonly objectUrlBase: string;

  constructor(
    private readonly config: S3ProviderConfig,
    env: Readonly<Record<string, string | undefined>> = process.env,
  ) {
    const region = config.region ?? (env.AWS_REGION || undefined) ?? fallbackRegion;
    this.client = new S3Client({
      region,
      forcePathStyle: config.forcePathStyle,
      ...(config.endpoint === null ? {} : { endpoint: config.endpoint }),
      // A copy: the SDK marks the object it is given with where the credentials came from.
      ...(config.credentials === null ? {} : { credentials: { ...config.credentials } }),
      // Checksums only where S3 requires them: the default streams an aws-chunked body with a
      // trailing checksum, which many S3-compatible servers (MinIO before 2024, s3rver, R2 in
      // part) refuse. The length is known and the transport is TLS in production.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.prefix = config.rootPath === '' ? '' : `${config.rootPath}/`;
    this.objectUrlBase = config.baseUrl ?? objectUrlBase(config, region);
  }

  /**
   * Checked once at start: a bucket that does not exist is a configuration error. Anything else
   * (no answer, 403) only warns: the server may be briefly unreachable, and credentials limited to
   * the objects (PutObject, GetObject, DeleteObject) may not read the bucket itself.
   */
  async check(warn: (message: string) => void): Promise<void> {
    const where = `the S3 bucket "${this.config.bucket}"${this.config.endpoint === null ? '' : ` at ${this.config.endpoint}`}`;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.config.bucket }));
    } catch (error) {
      if (error instanceof NotFound || (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)) {
        throw new ConfigError(`config/plugins.json: upload.config.providerOptions.s3Options.params.Bucket names ${where}, which does not exist`);
      }
      const status = error instanceof S3ServiceException ? ` (HTTP ${String(error.$metadata.httpStatusCode)})` : '';
      warn(`upload: could not check ${where}${status}: ${error instanceof Error ? error.message || error.name : String(error)}; uploads will fail until it answers`);
    }
  }

  /** Closes the client's connections. */
  close(): void {
    this.client.destroy();
  }

  urlOf(fileName: string): string {
    return `${this.objectUrlBase}/${this.keyOf(fileName).split('/').map(encodeURIComponent).join('/')}`;
  }

  /** From hash and extension, as Strapi's provider names objects; the URL may be a CDN's. */
  storedName(entry: StoredEntry): string | undefined {
    const name = `${entry.hash}${entry.ext ?? ''}`;
    return isStoredFileName(name) ? name : undefined;
  }

  /** One PutObject of known length; S3 replaces an object atomically, so both modes are the same. */
  async put(fileName: string, path: string, mime: string | undefined, _mode: PutMode): Promise<void> {
    const { size } = await stat(path);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.config.bucket,
        Key: this.keyOf(fileName),
        Body: createReadStream(path),
        ContentLength: size,
        ...(mime === undefined ? {} : { ContentType: mime }),
        ...(this.config.acl === null ? {} : { ACL: this.config.acl as ObjectCannedACL }),
      }),
    );
  }

  async copyOut(fileName: string, path: string): Promise<{ mime: string | undefined } | null> {
    let object;
    try {
      object = await this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: this.keyOf(fileName) }));
    } catch (error) {
      if (error instanceof NoSuchKey) return null;
      throw error;
    }
    await pipeline(object.Body as Readable, createWriteStream(path, { flags: 'wx' }));
    return { mime: object.ContentType };
  }

  /** S3 answers 204 for a key that does not exist: missing objects are fine. */
  async delete(fileName: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.keyOf(fileName) }));
  }

  private keyOf(fileName: string): string {
    return `${this.prefix}${fileName}`;
  }
}

/** Where S3 serves the bucket's objects, as lib-storage reports an upload's `Location`. */
function objectUrlBase(config: S3ProviderConfig, region: string): string {
  const endpoint = new URL(config.endpoint ?? `https://s3.${region}.amazonaws.com`);
  const path = endpoint.pathname.replace(/\/+$/, '');
  const bucket = encodeURIComponent(config.bucket);
  if (config.forcePathStyle) return `${endpoint.protocol}//${endpoint.host}${path}/${bucket}`;
  return `${endpoint.protocol}//${bucket}.${endpoint.host}${path}`;
}
