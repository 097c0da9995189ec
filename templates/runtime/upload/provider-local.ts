/**
 * Strapi's `local` provider: files in `<projectRoot>/public/uploads`, served by this server at
 * `/uploads/<name>`. Staged files are in a work folder on the same file system (storage.ts), so
 * storing one is a hard link (a copy where links are not supported) and replacing one an atomic
 * rename.
 */
import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, link, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { PutMode, StoredEntry, UploadProvider } from './provider.ts';
import { storedNameFromUrl } from './safety.ts';
import { isCode, type UploadFolder } from './storage.ts';

export class LocalProvider implements UploadProvider {
  readonly name = 'local';

  constructor(private readonly folder: UploadFolder) {}

  urlOf(fileName: string): string {
    return `/uploads/${fileName}`;
  }

  /** From the URL: a row whose URL is not a plain `/uploads/` name points at nothing of ours. */
  storedName(entry: StoredEntry): string | undefined {
    return storedNameFromUrl(entry.url);
  }

  async put(fileName: string, path: string, _mime: string | undefined, mode: PutMode): Promise<void> {
    const target = this.folder.pathOf(fileName);
    if (mode === 'create') return linkExclusive(path, target);
    // Beside the target first, then one rename over it: readers never meet a missing or partial file.
    const beside = join(this.folder.tmpRoot, `put-${process.pid}-${randomUUID()}`);
    await linkExclusive(path, beside);
    try {
      await rename(beside, target);
    } catch (error) {
      await unlink(beside).catch(() => undefined);
      throw error;
    }
  }

  async copyOut(fileName: string, path: string): Promise<{ mime: undefined } | null> {
    try {
      await linkExclusive(this.folder.pathOf(fileName), path);
    } catch (error) {
      if (isCode(error, 'ENOENT')) return null;
      throw error;
    }
    return { mime: undefined };
  }

  async delete(fileName: string): Promise<void> {
    try {
      await unlink(this.folder.pathOf(fileName));
    } catch (error) {
      if (!isCode(error, 'ENOENT')) throw error;
    }
  }

  close(): void {}
}

/**
 * A hard link fails when the target exists, which is exactly "create, never overwrite". On a file
 * system without hard links, an exclusive copy does the same, more slowly.
 */
async function linkExclusive(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
    return;
  } catch (error) {
    if (isCode(error, 'EEXIST') || isCode(error, 'ENOENT')) throw error;
  }
  try {
    await copyFile(from, to, constants.COPYFILE_EXCL);
  } catch (error) {
    // A partial copy is ours to remove; an existing file is not.
    if (!isCode(error, 'EEXIST')) await unlink(to).catch(() => undefined);
    throw error;
  }
}
