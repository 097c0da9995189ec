/**
 * Storing the files of one change (an upload's original and formats, a replacement, an import's
 * assets) over any upload provider, so that the change is all or nothing: each object is put
 * with the provider's primitive, and a failure on the way, or later in the database transaction
 * that records the files, takes back every object put and restores every object displaced.
 *
 * A replacement reuses names: the objects under them are first copied out into a work folder,
 * then overwritten (or deleted, for a name the new files do not reuse: a format the new image is
 * too small for); undo puts the copies back.
 */
import type { PutMode, UploadProvider } from './provider.ts';
import { resolveInside } from './safety.ts';

/** A file written in a work folder, the name it is stored under, and its type. */
export interface StagedFile {
  readonly stagedPath: string;
  readonly fileName: string;
  readonly mime?: string;
}

/** Stored objects to replace, copied into `backupDir` (a work folder) first so that undo can put them back. */
export interface Displacement {
  readonly names: readonly string[];
  readonly backupDir: string;
}

/** Objects stored for a change that has not committed yet. */
export interface Placement {
  /** Deletes what was stored and restores what it displaced. Never throws. */
  undo(): Promise<void>;
}

/** A displaced object's bytes in the work folder, and the type to put it back with. */
interface Backup {
  readonly path: string;
  readonly mime: string | undefined;
}

/** Stores `files`, after copying `displace.names` aside; a failure undoes what was done and rethrows. */
export async function storeFiles(
  provider: UploadProvider,
  files: readonly StagedFile[],
  displace: Displacement = { names: [], backupDir: '' },
  hooks: { readonly afterStore?: (fileName: string) => Promise<void> } = {},
): Promise<Placement> {
  const incoming = new Set(files.map((file) => file.fileName));
  const backups = new Map<string, Backup>();
  /** Names stored by this change, in order. */
  const stored: string[] = [];
  /** Displaced names the new files do not reuse, deleted. */
  const dropped: string[] = [];

  const undo = async (): Promise<void> => {
    for (const name of stored.splice(0).reverse()) {
      const backup = backups.get(name);
      if (backup === undefined) await provider.delete(name).catch(() => undefined);
      else await provider.put(name, backup.path, backup.mime, 'overwrite').catch(() => undefined);
    }
    for (const name of dropped.splice(0).reverse()) {
      const backup = backups.get(name);
      if (backup !== undefined) await provider.put(name, backup.path, backup.mime, 'create').catch(() => undefined);
    }
  };

  try {
    for (const name of new Set(displace.names)) {
      const path = resolveInside(displace.backupDir, name);
      const copied = await provider.copyOut(name, path);
      if (copied === null) continue;
      backups.set(name, { path, mime: copied.mime });
      if (!incoming.has(name)) {
        await provider.delete(name);
        dropped.push(name);
      }
    }
    for (const file of files) {
      const mode: PutMode = backups.has(file.fileName) ? 'overwrite' : 'create';
      await provider.put(file.fileName, file.stagedPath, file.mime, mode);
      stored.push(file.fileName);
      await hooks.afterStore?.(file.fileName);
    }
  } catch (error) {
    await undo();
    throw error;
  }
  return { undo };
}

/** Deletes stored objects; missing ones are fine. Returns the names that could not be deleted. */
export async function removeStored(provider: UploadProvider, fileNames: readonly string[]): Promise<string[]> {
  const failed: string[] = [];
  for (const name of fileNames) {
    try {
      await provider.delete(name);
    } catch {
      failed.push(name);
    }
  }
  return failed;
}
