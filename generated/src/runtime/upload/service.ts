/**
 * What the upload routes do, without HTTP: upload, replace, update info, find and delete files.
 * A failed upload leaves nothing behind: files are checked and their formats made in a work
 * folder, stored by the provider, and the rows are inserted in one transaction, so that a
 * failure anywhere (validation, sharp, the storage, the database, the commit) takes every row and
 * every stored file back. Storing comes before the transaction, not inside it: an upload to S3
 * takes as long as the network does, and must not hold the database's write lock meanwhile.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { UploadConfig } from '../config.ts';
import { retryingTransaction, type Database, type Queryable } from '../database.ts';
import { createDocumentId } from '../document-id.ts';
import { NotFoundError, ValidationError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { generateFormats, maxImagePixels, readImageFacts, UnreadableImageError, type MediaFormat } from './formats.ts';
import { bytesToKilobytes, generateHash } from './hash.ts';
import { isMimeAllowed, undecodableContent, verifyContentType } from './mime.ts';
import { notAllowed, type FileInfo, type ReceivedFile } from './multipart.ts';
import { deleteFileRow, findFileRow, findFileRows, insertFile, listFileRows, updateFileContentRow, updateFileInfoRow } from './repository.ts';
import { createUploadProvider, storedNames, type UploadProvider } from './provider.ts';
import { plainExtension, sanitizeFileName } from './safety.ts';
import { serializeFile, type MediaFile } from './serialize.ts';
import type { UploadFolder } from './storage.ts';
import { dropUncommitted, readJournal, writeJournal } from './journal.ts';
import { removeStored, storeFiles, type StagedFile } from './stored-files.ts';

/** Strapi's upload 404 message. */
export const fileNotFoundMessage = 'file.notFound';

/** Extensions for files whose name has none, by the type their content was found to be. */
const extensionByMime: Readonly<Record<string, string>> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/gif': '.gif',
  'image/webp': '.webp',
  'image/avif': '.avif',
  'image/tiff': '.tif',
  'image/bmp': '.bmp',
  'image/svg+xml': '.svg',
  'application/pdf': '.pdf',
  'application/zip': '.zip',
  'application/json': '.json',
  'text/plain': '.txt',
  'text/csv': '.csv',
  'text/html': '.html',
  'audio/mpeg': '.mp3',
  'video/mp4': '.mp4',
  'video/webm': '.webm',
};

/** A checked file, its formats made, ready to be inserted and moved into place. */
interface PreparedFile {
  readonly name: string;
  readonly alternativeText: string | null;
  readonly caption: string | null;
  readonly hash: string;
  readonly ext: string | null;
  readonly mime: string;
  readonly size: number;
  readonly width: number | null;
  readonly height: number | null;
  readonly formats: Readonly<Record<string, MediaFormat>> | null;
  readonly staged: readonly StagedFile[];
}

/**
 * Told about each media change (webhooks' `media.*` events): `inTransaction` inside the change's
 * transaction, `committed` once it has committed.
 */
export interface MediaHooks {
  inTransaction(tx: Queryable, event: 'media.create' | 'media.update' | 'media.delete', file: MediaFile): Promise<void>;
  committed(): void;
}

const noMediaHooks: MediaHooks = { inTransaction: async () => undefined, committed: () => undefined };

export class UploadService {
  private readonly provider: UploadProvider;

  /** `folder`: the local upload folder, where the local provider stores files. */
  constructor(
    private readonly db: Database,
    folder: UploadFolder,
    private readonly config: UploadConfig,
    private readonly logger: Logger,
    private readonly media: MediaHooks = noMediaHooks,
  ) {
    this.provider = createUploadProvider(config.provider, folder);
  }

  /**
   * Deletes what the uploads of killed processes stored without their rows committing, from the
   * journals in their work folders (journal.ts). Returns the names deleted.
   */
  async dropUncommitted(workDirs: readonly string[]): Promise<string[]> {
    const dropped: string[] = [];
    for (const workDir of workDirs) {
      const journal = readJournal(workDir);
      if (journal === undefined) continue;
      try {
        dropped.push(...(await dropUncommitted(this.db, this.provider, journal)));
      } catch (error) {
        // A storage that is down must not keep the server from starting: the files stay.
        this.logger.warn({ err: error, files: journal.names }, 'upload: could not delete the files of an upload whose process was killed');
      }
    }
    return dropped;
  }

  /** Creates one file per received file, all or none. `workDir` holds the received files. */
  async upload(files: readonly ReceivedFile[], infos: readonly FileInfo[], workDir: string): Promise<MediaFile[]> {
    if (files.length === 0 || files.some((file) => file.size === 0)) throw new ValidationError('Files are empty');
    const prepared: PreparedFile[] = [];
    for (const [index, file] of files.entries()) {
      const info = infos[index] ?? {};
      const originalName = sanitizeFileName(file.originalName);
      const name = info.name === undefined || info.name === null || info.name === '' ? originalName : sanitizeFileName(info.name);
      // The extension comes from the file's own name (Strapi's rule), or from its content.
      const ext = plainExtension(originalName);
      prepared.push(
        await this.prepare(file, workDir, {
          name,
          alternativeText: info.alternativeText ?? null,
          caption: info.caption ?? null,
          // Strapi slugs the name without the original's extension.
          hash: generateHash(ext !== undefined && name.endsWith(ext) ? name.slice(0, -ext.length) : name),
          ext,
        }),
      );
    }

    const now = new Date();
    // Read at the next start if this process dies before the rows commit (journal.ts).
    await writeJournal(workDir, { hashes: prepared.map((file) => file.hash), names: prepared.flatMap((file) => file.staged.map((staged) => staged.fileName)) });
    const placement = await storeFiles(
      this.provider,
      prepared.flatMap((file) => file.staged),
    );
    try {
      const rows = await retryingTransaction(this.db, async (tx) => {
        const ids: number[] = [];
        for (const file of prepared) {
          ids.push(
            await insertFile(tx, {
              documentId: createDocumentId(),
              name: file.name,
              alternativeText: file.alternativeText,
              caption: file.caption,
              width: file.width,
              height: file.height,
              formats: file.formats === null ? null : JSON.stringify(file.formats),
              hash: file.hash,
              ext: file.ext,
              mime: file.mime,
              size: file.size,
              url: this.provider.urlOf(`${file.hash}${file.ext ?? ''}`),
              provider: this.provider.name,
              folderPath: '/',
              now,
            }),
          );
        }
        const inserted = await findFileRows(tx, ids);
        for (const row of inserted) await this.media.inTransaction(tx, 'media.create', serializeFile(row));
        return inserted;
      });
      this.media.committed();
      return rows.map(serializeFile);
    } catch (error) {
      await placement.undo();
      throw error;
    }
  }

  /**
   * Replaces a file's content, keeping its hash and extension so that its URL stays valid, as
   * Strapi does. The old original and formats are moved aside and restored if anything fails.
   */
  async replace(id: number, file: ReceivedFile, info: FileInfo, workDir: string): Promise<MediaFile> {
    const current = await this.findOne(id);
    if (current === undefined) throw new NotFoundError(fileNotFoundMessage);
    if (file.size === 0) throw new ValidationError('Files are empty');
    const originalName = sanitizeFileName(file.originalName);
    const prepared = await this.prepare(file, workDir, {
      name: info.name === undefined || info.name === null || info.name === '' ? originalName : sanitizeFileName(info.name),
      alternativeText: info.alternativeText === undefined ? current.alternativeText : info.alternativeText,
      caption: info.caption === undefined ? current.caption : info.caption,
      hash: current.hash,
      ext: current.ext,
    });
    // A file another provider stored (the project has moved to S3) gets this provider's URL; its old copies stay where they are.
    const sameProvider = current.provider === this.provider.name;
    const displaced = sameProvider ? storedNames(this.provider, current).names : [];
    if (!sameProvider) this.logger.warn({ fileId: id, provider: current.provider }, `upload: replacing a file stored by the "${current.provider}" provider; its old copies are left in place`);
    const backupDir = join(workDir, 'displaced');
    await mkdir(backupDir, { recursive: true });

    const placement = await storeFiles(this.provider, prepared.staged, { names: displaced, backupDir });
    try {
      const row = await retryingTransaction(this.db, async (tx) => {
        await updateFileContentRow(tx, id, {
          name: prepared.name,
          alternativeText: prepared.alternativeText,
          caption: prepared.caption,
          width: prepared.width,
          height: prepared.height,
          formats: prepared.formats === null ? null : JSON.stringify(prepared.formats),
          mime: prepared.mime,
          size: prepared.size,
          url: this.provider.urlOf(`${current.hash}${current.ext ?? ''}`),
          provider: this.provider.name,
          now: new Date(),
        });
        const updated = await findFileRow(tx, id);
        if (updated !== undefined) await this.media.inTransaction(tx, 'media.update', serializeFile(updated));
        return updated;
      });
      if (row === undefined) throw new NotFoundError(fileNotFoundMessage);
      this.media.committed();
      return serializeFile(row);
    } catch (error) {
      await placement.undo();
      throw error;
    }
  }

  /** Changes name, alternative text and caption; absent or null values keep the current ones (Strapi's rule). */
  async updateInfo(id: number, info: FileInfo): Promise<MediaFile> {
    const row = await retryingTransaction(this.db, async (tx) => {
      const existing = await findFileRow(tx, id);
      if (existing === undefined) return undefined;
      const current = serializeFile(existing);
      await updateFileInfoRow(tx, id, {
        name: info.name === undefined || info.name === null ? current.name : sanitizeFileName(info.name),
        alternativeText: info.alternativeText ?? current.alternativeText,
        caption: info.caption ?? current.caption,
        now: new Date(),
      });
      const updated = await findFileRow(tx, id);
      if (updated !== undefined) await this.media.inTransaction(tx, 'media.update', serializeFile(updated));
      return updated;
    });
    if (row === undefined) throw new NotFoundError(fileNotFoundMessage);
    this.media.committed();
    return serializeFile(row);
  }

  async findOne(id: number): Promise<MediaFile | undefined> {
    const row = await findFileRow(this.db, id);
    return row === undefined ? undefined : serializeFile(row);
  }

  /** Every file by id: the default listing until the query engine serves `/api/upload/files`. */
  async findAll(): Promise<MediaFile[]> {
    return (await listFileRows(this.db)).map(serializeFile);
  }

  /**
   * Deletes a file's row and links, then its original and formats from storage. Storage comes
   * second: a failed delete must not leave a row pointing at nothing. As in Strapi, only files
   * the configured provider stored are deleted from storage.
   */
  async remove(id: number): Promise<MediaFile | undefined> {
    const deleted = await retryingTransaction(this.db, async (tx) => {
      const row = await findFileRow(tx, id);
      if (row === undefined) return undefined;
      await deleteFileRow(tx, id);
      const file = serializeFile(row);
      await this.media.inTransaction(tx, 'media.delete', file);
      return file;
    });
    if (deleted === undefined) return undefined;
    this.media.committed();
    if (deleted.provider !== this.provider.name) {
      this.logger.warn({ fileId: id, provider: deleted.provider }, `upload: the file row is deleted; its copies, stored by the "${deleted.provider}" provider, are left in place`);
      return deleted;
    }
    const { names, unknown } = storedNames(this.provider, deleted);
    for (const url of unknown) this.logger.warn({ fileId: id, url }, 'upload: not deleting a file whose URL names no stored file');
    const failed = await removeStored(this.provider, names);
    if (failed.length > 0) this.logger.warn({ fileId: id, files: failed }, 'upload: the file row is deleted but some files could not be removed from storage');
    return deleted;
  }

  /** `identity.ext` undefined: derive the extension from the content's type. */
  private async prepare(
    file: ReceivedFile,
    workDir: string,
    identity: Pick<PreparedFile, 'name' | 'alternativeText' | 'caption' | 'hash'> & { readonly ext: string | null | undefined },
  ): Promise<PreparedFile> {
    const mime = await verifyContentType(file.path, file.declaredMime, identity.name);
    if (!isMimeAllowed(mime, this.config.allowedMimeTypes)) throw notAllowed(mime);
    const ext = identity.ext === undefined ? (extensionByMime[mime] ?? null) : identity.ext;
    let facts;
    try {
      facts = await readImageFacts(file.path, mime);
    } catch (error) {
      if (error instanceof UnreadableImageError) throw unreadableImage(error, identity.name, mime);
      throw error;
    }
    const formats = await generateFormats({ path: file.path, name: identity.name, hash: identity.hash, ext, mime }, facts, workDir, (fileName) => this.provider.urlOf(fileName));
    return {
      ...identity,
      ext,
      mime,
      size: bytesToKilobytes(file.size),
      width: facts.width,
      height: facts.height,
      formats: formats.length === 0 ? null : Object.fromEntries(formats.map((format) => [format.name, format.format])),
      staged: [{ stagedPath: file.path, fileName: `${identity.hash}${ext ?? ''}`, mime }, ...formats.map(({ stagedPath, fileName }) => ({ stagedPath, fileName, mime }))],
    };
  }
}

function unreadableImage(error: UnreadableImageError, name: string, mime: string): ValidationError {
  if (error.reason === 'too large') return new ValidationError(`The image "${name}" has more pixels than the ${maxImagePixels} that are processed`);
  return undecodableContent(name, mime);
}
