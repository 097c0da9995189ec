/**
 * Where uploaded files are kept: Strapi's upload provider, reduced to primitives on one stored
 * object each (put, copy out, delete, its URL). What an upload, a replacement, a delete or an
 * import does with several objects, and how it is undone, is written once, over any provider,
 * in stored-files.ts.
 */
import type { UploadProviderConfig } from './provider-config.ts';
import { LocalProvider } from './provider-local.ts';
import { S3Provider } from './provider-s3.ts';
import type { MediaFile } from './serialize.ts';
import type { UploadFolder } from './storage.ts';

/**
 * `create`: the name is new (the local provider refuses to overwrite, so that a name collision can
 * never destroy another file's bytes); `overwrite`: the name is being replaced, atomically where
 * the storage can (a reader sees the old bytes or the new, never none).
 */
export type PutMode = 'create' | 'overwrite';

/** What a file row says of its original or of one of its formats. */
export interface StoredEntry {
  readonly hash: string;
  readonly ext: string | null;
  readonly url: string;
}

/**
 * The names a file row's original and formats are stored under, for deleting, replacing or
 * exporting them; `unknown` lists URLs that name no object the provider stored (left alone).
 */
export function storedNames(provider: UploadProvider, file: Pick<MediaFile, 'hash' | 'ext' | 'url' | 'formats'>): { readonly names: readonly string[]; readonly unknown: readonly string[] } {
  const names: string[] = [];
  const unknown: string[] = [];
  for (const entry of [file, ...Object.values(file.formats ?? {})]) {
    const name = provider.storedName(entry);
    if (name === undefined) unknown.push(entry.url);
    else names.push(name);
  }
  return { names, unknown };
}

export interface UploadProvider {
  /** What the `provider` column says: Strapi's provider name. */
  readonly name: string;
  /** The URL a stored object is served at. */
  urlOf(fileName: string): string;
  /**
   * The name one stored entry of a file row (its original, or one of its formats) is stored
   * under, or undefined when the entry names no object this provider stored.
   */
  storedName(entry: StoredEntry): string | undefined;
  /** Stores the local file at `path` as one object named `fileName`, sent with type `mime`. */
  put(fileName: string, path: string, mime: string | undefined, mode: PutMode): Promise<void>;
  /**
   * Copies a stored object's bytes to the local file `path` (which must not exist): the backup a
   * replacement can be undone from. Returns its type as stored (undefined when the storage keeps
   * none), or null when there is no such object.
   */
  copyOut(fileName: string, path: string): Promise<{ readonly mime: string | undefined } | null>;
  /** Deletes one stored object; a missing one is fine. Throws when it could not be deleted. */
  delete(fileName: string): Promise<void>;
}

/**
 * Checks at start that the configured storage can be used: throws ConfigError for what is
 * certainly a configuration mistake (an S3 bucket that does not exist), warns for the rest.
 */
export async function checkUploadStorage(config: UploadProviderConfig, warn: (message: string) => void): Promise<void> {
  if (config.provider !== 'aws-s3') return;
  const provider = new S3Provider(config);
  try {
    await provider.check(warn);
  } finally {
    provider.close();
  }
}

/** The provider the configuration names. `folder` is the local upload folder (and work folders). */
export function createUploadProvider(config: UploadProviderConfig, folder: UploadFolder): UploadProvider & { close(): void } {
  return config.provider === 'local' ? new LocalProvider(folder) : new S3Provider(config);
}
