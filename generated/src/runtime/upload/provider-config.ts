/**
 * `upload.config` of config/plugins.json: which provider stores uploaded files, with Strapi's
 * names so that a Strapi project's `config/plugins.js` ports one to one:
 *
 *   "upload": { "config": { "provider": "local" } }                              (the default)
 *   "upload": { "config": { "provider": "aws-s3", "providerOptions": {
 *       "baseUrl": "https://cdn.example.com",          optional: URLs become `<baseUrl>/<key>`
 *       "rootPath": "media",                           optional: key prefix inside the bucket
 *       "s3Options": {
 *         "credentials": { "accessKeyId": "${env:AWS_ACCESS_KEY_ID}", "secretAccessKey": "${env:AWS_ACCESS_SECRET}" },
 *         "region": "eu-west-1",
 *         "endpoint": "https://s3.example.com",         optional: any S3-compatible server
 *         "forcePathStyle": true,                       optional: `<endpoint>/<bucket>/<key>`
 *         "params": { "Bucket": "my-bucket", "ACL": "public-read" } } } } }
 *
 * JSON cannot call Strapi's `env()`, so every string option may be a whole `"${env:NAME}"`: the
 * value of that environment variable, an error at start when it is not set. Without
 * `credentials`, the AWS SDK's own chain applies (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY /
 * AWS_SESSION_TOKEN, a profile, an instance or task role); without `region`, AWS_REGION.
 */
import { at, boolean, fail, got, object, oneOf, string, type Where } from '../config-check.ts';
import type { Environment } from '../config.ts';

/** Strapi's provider names (`@strapi/provider-upload-local`, `@strapi/provider-upload-aws-s3`). */
export const uploadProviderNames = ['local', 'aws-s3'] as const;
export type UploadProviderName = (typeof uploadProviderNames)[number];

export interface S3ProviderConfig {
  readonly provider: 'aws-s3';
  /** No trailing slash; null: the object URL S3 answers with. */
  readonly baseUrl: string | null;
  /** Key prefix without slashes at either end; '' for the bucket's root. */
  readonly rootPath: string;
  readonly bucket: string;
  /** Canned ACL sent with each object; null sends none (buckets with ACLs disabled). */
  readonly acl: string | null;
  /** null: AWS_REGION (the SDK's own lookup). */
  readonly region: string | null;
  /** null: AWS S3 itself. */
  readonly endpoint: string | null;
  readonly forcePathStyle: boolean;
  /** null: the AWS SDK's default credential chain. */
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string; readonly sessionToken?: string } | null;
}

export type UploadProviderConfig = { readonly provider: 'local' } | S3ProviderConfig;

/** S3's canned ACLs. `private` is refused: it needs signed URLs, which capi does not issue. */
const cannedAcls = ['public-read', 'public-read-write', 'authenticated-read', 'aws-exec-read', 'bucket-owner-read', 'bucket-owner-full-control'] as const;

/** Strapi's default: objects readable by anyone, since their URLs are handed to browsers. */
const defaultAcl = 'public-read';

const envReference = /^\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** A string option, or the environment variable a `"${env:NAME}"` value names. */
export function configString(where: Where, value: unknown, env: Environment): string {
  const text = string(where, value);
  const match = envReference.exec(text);
  if (match === null) return text;
  const name = match[1] ?? '';
  const resolved = env[name];
  if (resolved === undefined || resolved === '') fail(where, `names the environment variable ${name}, which is not set`);
  return resolved;
}

/** `upload.config.provider` and `upload.config.providerOptions`; `where` is `upload.config`. */
export function uploadProviderConfig(where: Where, provider: unknown, providerOptions: unknown, env: Environment): UploadProviderConfig {
  // Strapi's package names mean the same providers.
  const aliased = provider === '@strapi/provider-upload-aws-s3' ? 'aws-s3' : provider === '@strapi/provider-upload-local' ? 'local' : provider;
  const name = aliased === undefined ? 'local' : oneOf(at(where, 'provider'), aliased, uploadProviderNames);
  const ow = at(where, 'providerOptions');
  if (name === 'local') {
    // Strapi's local provider takes no options that mean anything here.
    object(ow, providerOptions ?? {}, []);
    return { provider: 'local' };
  }
  return s3Config(ow, providerOptions, env);
}

function s3Config(where: Where, json: unknown, env: Environment): S3ProviderConfig {
  if (json === undefined) fail(where, 'is required when provider is "aws-s3" (at least s3Options.params.Bucket)');
  const options = object(where, json, ['baseUrl', 'rootPath', 's3Options']);
  const sw = at(where, 's3Options');
  if (options.s3Options === undefined) fail(sw, 'is required when provider is "aws-s3" (at least params.Bucket)');
  const s3 = object(sw, options.s3Options, ['credentials', 'region', 'endpoint', 'forcePathStyle', 'params']);
  const pw = at(sw, 'params');
  if (s3.params === undefined) fail(at(pw, 'Bucket'), 'is required when provider is "aws-s3"');
  const params = object(pw, s3.params, ['Bucket', 'ACL']);
  if (params.Bucket === undefined) fail(at(pw, 'Bucket'), 'is required when provider is "aws-s3"');
  const cw = at(sw, 'credentials');
  const credentials = s3.credentials === undefined ? undefined : object(cw, s3.credentials, ['accessKeyId', 'secretAccessKey', 'sessionToken']);
  return {
    provider: 'aws-s3',
    baseUrl: options.baseUrl === undefined ? null : httpUrl(at(where, 'baseUrl'), configString(at(where, 'baseUrl'), options.baseUrl, env)).replace(/\/+$/, ''),
    rootPath: options.rootPath === undefined ? '' : rootPath(at(where, 'rootPath'), options.rootPath, env),
    bucket: configString(at(pw, 'Bucket'), params.Bucket, env),
    acl: acl(at(pw, 'ACL'), params.ACL, env),
    region: s3.region === undefined ? null : configString(at(sw, 'region'), s3.region, env),
    endpoint: s3.endpoint === undefined ? null : httpUrl(at(sw, 'endpoint'), configString(at(sw, 'endpoint'), s3.endpoint, env)),
    forcePathStyle: s3.forcePathStyle === undefined ? false : boolean(at(sw, 'forcePathStyle'), s3.forcePathStyle),
    credentials:
      credentials === undefined
        ? null
        : {
            accessKeyId: configString(at(cw, 'accessKeyId'), credentials.accessKeyId, env),
            secretAccessKey: configString(at(cw, 'secretAccessKey'), credentials.secretAccessKey, env),
            ...(credentials.sessionToken === undefined ? {} : { sessionToken: configString(at(cw, 'sessionToken'), credentials.sessionToken, env) }),
          },
  };
}

function acl(where: Where, value: unknown, env: Environment): string | null {
  if (value === null) return null;
  if (value === undefined) return defaultAcl;
  const text = configString(where, value, env);
  if (text === 'private') fail(where, `"private" needs signed URLs, which capi does not issue; use a public ACL, or null and a bucket policy ${got(text)}`);
  return oneOf(where, text, cannedAcls);
}

function rootPath(where: Where, value: unknown, env: Environment): string {
  if (value === '') return '';
  const path = configString(where, value, env).replace(/^\/+|\/+$/g, '');
  if (path === '') return '';
  // Keys are `<rootPath>/<hash><ext>`: dot segments would be resolved away by some servers.
  if (path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) fail(where, `must be a key prefix like "media" or "site/media" ${got(value)}`);
  return path;
}

function httpUrl(where: Where, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(where, `must be an http:// or https:// URL ${got(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(where, `must be an http:// or https:// URL ${got(value)}`);
  return value;
}
