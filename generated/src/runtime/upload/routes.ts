/**
 * The upload plugin's REST routes, mounted into the app by `uploadMount`:
 *
 * Every file answered carries `isUrlSigned: false`, as Strapi's upload routes answer (media
 * populated into entries do not: Strapi signs those only for private providers).
 *
 *   POST   /api/upload            (also /upload)  multipart `files` (+ `fileInfo`) → 201 [file, ...]
 *   POST   /api/upload?id=N       `fileInfo` only → 200 file with new info; with one file → 200 replaced file
 *   GET    /api/upload/files      → [file, ...]               (hook: listFiles)
 *   GET    /api/upload/files/page → { data: [file, ...], meta: { pagination } }  (hook: pageFiles)
 *   GET    /api/upload/files/:id  → file, or 404 file.notFound  (hook: findFile)
 *   DELETE /api/upload/files/:id  → 200 the deleted file
 *   GET    /uploads/<name>        the stored files, from <projectRoot>/public/uploads
 *
 * Two hooks are left to the integrator: `authorize` (roles and permissions) and `listFiles`
 * (filters, sort, fields, pagination through the shared query engine).
 */
import { basename, join } from 'node:path';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { NotFoundError, ValidationError } from '../errors.ts';
import type { AppContext, Mount } from '../server.ts';
import { parseFileInfo, receiveMultipart, type MultipartLimits } from './multipart.ts';
import { parseFileId } from './repository.ts';
import { uploadResponseHeaders } from './safety.ts';
import { withUrlSigned, type MediaFile } from './serialize.ts';
import { fileNotFoundMessage, UploadService, type MediaHooks } from './service.ts';
import { UploadFolder } from './storage.ts';

export const uploadActions = {
  upload: 'plugin::upload.content-api.upload',
  find: 'plugin::upload.content-api.find',
  findOne: 'plugin::upload.content-api.findOne',
  destroy: 'plugin::upload.content-api.destroy',
} as const;

export type UploadAction = (typeof uploadActions)[keyof typeof uploadActions];

/** Throws ForbiddenError (or UnauthorizedError) when the caller may not perform `action`. */
export type Authorize = (action: UploadAction, req: Request) => void | Promise<void>;

/** The query of `GET /api/upload/files`, for the query engine to parse and validate. */
export interface FileListQuery {
  /** The query string as sent, without `?` (brackets may be percent-encoded). */
  readonly raw: string;
  /** `req.query`, as the app's query parser made it. */
  readonly parsed: unknown;
}

/** A file as the list returns it: every field, or those `fields` selected. */
export type FileEntity = Readonly<Record<string, unknown>>;

/**
 * Serves `GET /api/upload/files`: filters, sort, fields and pagination of `query` applied to
 * `plugin::upload.file` (see file-schema.ts), returning files as `serializeFile` shapes them
 * (or a `fields` subset). Throws ValidationError for invalid queries. `isUrlSigned` is added here.
 */
export type ListFiles = (query: FileListQuery, req: Request) => Promise<readonly FileEntity[]>;

/**
 * Serves `GET /api/upload/files/:id` when its query asks for more than the file (`populate`);
 * undefined when there is no such file. Throws ValidationError for invalid queries.
 */
export type FindFile = (id: number, query: FileListQuery, req: Request) => Promise<FileEntity | undefined>;

/** One page of files and the `meta.pagination` of the request's form (page/pageSize or start/limit). */
export interface FilePage {
  readonly data: readonly object[];
  readonly pagination: Readonly<Record<string, number>>;
}

/** Serves `GET /api/upload/files/page`: as ListFiles, paginated as a content type's list is. */
export type PageFiles = (query: FileListQuery, req: Request) => Promise<FilePage>;

export interface UploadMountOptions {
  /** Default: everyone may do everything (tests, and until roles are wired). */
  readonly authorize?: Authorize;
  /** Default: every file, ordered by id, query ignored. */
  readonly listFiles?: ListFiles;
  /** Default: the file alone, query ignored. */
  readonly findFile?: FindFile;
  /** Default: every file on one page, query ignored. */
  readonly pageFiles?: PageFiles;
  /** Default: `<projectRoot>/public/uploads`. */
  readonly uploadDir?: string;
  /** Most files in one request. Default 50. */
  readonly maxFiles?: number;
  /** Told about each media change (webhooks' media events). */
  readonly media?: MediaHooks;
}

const allowAll: Authorize = () => undefined;

/** A MountFactory: `startServer({ mounts: [(ctx) => uploadMount(ctx, { authorize, listFiles })] })`. */
export async function uploadMount(ctx: AppContext, options: UploadMountOptions = {}): Promise<Mount[]> {
  const folder = UploadFolder.openSync(options.uploadDir ?? join(ctx.config.projectRoot, 'public', 'uploads'));
  const service = new UploadService(ctx.db, folder, ctx.config.plugins.upload, ctx.logger, options.media);
  // Warnings: they are the traces of a process that was killed mid-upload. The stored files
  // first, while the work folders still hold their journals.
  const dropped = await service.dropUncommitted(folder.leftoverWorkDirs());
  if (dropped.length > 0) ctx.logger.warn({ files: dropped }, 'upload: deleted the files of uploads whose process was killed before their rows were written');
  const swept = await folder.sweep({ db: ctx.db });
  if (swept.length > 0) ctx.logger.warn({ workDirs: swept }, 'upload: removed the work folders of processes that are gone');
  const authorize = options.authorize ?? allowAll;
  const limits: MultipartLimits = {
    fileSize: ctx.config.plugins.upload.sizeLimit,
    files: options.maxFiles ?? 50,
    allowedMimeTypes: ctx.config.plugins.upload.allowedMimeTypes,
  };

  const upload: RequestHandler = async (req, res) => {
    await authorize(uploadActions.upload, req);
    const idParam = queryParam(req, 'id');
    // Checked before the body is read: no point receiving a file for a file that does not exist.
    const id = idParam === undefined ? undefined : parseFileId(idParam);
    if (idParam !== undefined && (id === undefined || (await service.findOne(id)) === undefined)) throw new NotFoundError(fileNotFoundMessage);

    const work = await folder.createWorkDir();
    let result: MediaFile | MediaFile[];
    try {
      const body = await receiveMultipart(req, res, work.path, limits);
      const files = body?.files ?? [];
      const fields = body?.fields ?? jsonBody(req);
      if (id === undefined) {
        if (files.length === 0) throw new ValidationError('Files are empty');
        result = await service.upload(files, parseFileInfo(fields.fileInfo, files.length), work.path);
      } else {
        if (files.length > 1) throw new ValidationError('Cannot replace a file with multiple ones');
        const [info = {}] = parseFileInfo(fields.fileInfo, 1);
        const [file] = files;
        result = file === undefined ? await service.updateInfo(id, info) : await service.replace(id, file, info, work.path);
      }
    } finally {
      // Before answering, so that a client never sees the work folder of its own request.
      await work.remove();
    }
    // Strapi 5 passes every file it answers through signFileUrls, which sets isUrlSigned.
    res.status(id === undefined ? 201 : 200).json(Array.isArray(result) ? result.map(withUrlSigned) : withUrlSigned(result));
  };

  const api = express.Router();
  api.post('/', upload);
  api.get('/files', async (req, res) => {
    await authorize(uploadActions.find, req);
    const files: readonly object[] = options.listFiles === undefined ? await service.findAll() : await options.listFiles(listQuery(req), req);
    res.json(files.map((file) => ({ ...file, isUrlSigned: false })));
  });
  // Before `/files/:id`, which would take `page` for a file id.
  api.get('/files/page', async (req, res) => {
    await authorize(uploadActions.find, req);
    const page: FilePage = options.pageFiles === undefined ? await allOnOnePage(service) : await options.pageFiles(listQuery(req), req);
    res.json({ data: page.data.map((file) => ({ ...file, isUrlSigned: false })), meta: { pagination: page.pagination } });
  });
  api.get('/files/:id', async (req, res) => {
    await authorize(uploadActions.findOne, req);
    const id = parseFileId(req.params.id);
    if (id !== undefined && options.findFile !== undefined) {
      const found = await options.findFile(id, listQuery(req), req);
      if (found === undefined) throw new NotFoundError(fileNotFoundMessage);
      res.json({ ...found, isUrlSigned: false });
      return;
    }
    const file = id === undefined ? undefined : await service.findOne(id);
    if (file === undefined) throw new NotFoundError(fileNotFoundMessage);
    res.json(withUrlSigned(file));
  });
  api.delete('/files/:id', async (req, res) => {
    await authorize(uploadActions.destroy, req);
    const id = parseFileId(req.params.id);
    const file = id === undefined ? undefined : await service.remove(id);
    if (file === undefined) throw new NotFoundError(fileNotFoundMessage);
    res.json(withUrlSigned(file));
  });

  const legacy = express.Router();
  legacy.post('/', upload);

  return [
    { path: '/api/upload', handler: api },
    { path: '/upload', handler: legacy },
    { path: '/uploads', handler: serveUploads(folder.root) },
  ];
}

async function allOnOnePage(service: UploadService): Promise<FilePage> {
  const files = await service.findAll();
  return { data: files, pagination: { page: 1, pageSize: files.length, pageCount: 1, total: files.length } };
}

/** The stored files, read-only, never a directory listing, never the work folder (a dot folder). */
export function serveUploads(root: string): RequestHandler {
  return express.static(root, {
    dotfiles: 'ignore',
    index: false,
    redirect: false,
    fallthrough: true,
    setHeaders: (res: Response, path: string) => {
      for (const [name, value] of Object.entries(uploadResponseHeaders(basename(path)))) res.setHeader(name, value);
    },
  });
}

/** One query parameter read from the URL itself, whatever query parser the app was given. */
function queryParam(req: Request, name: string): string | undefined {
  // An empty value counts as absent, as Strapi's truthiness test on `id` makes it.
  return new URLSearchParams(rawQuery(req)).get(name) || undefined;
}

function rawQuery(req: Request): string {
  const index = req.originalUrl.indexOf('?');
  return index === -1 ? '' : req.originalUrl.slice(index + 1);
}

function listQuery(req: Request): FileListQuery {
  return { raw: rawQuery(req), parsed: req.query };
}

function jsonBody(req: Request): Readonly<Record<string, unknown>> {
  const body: unknown = req.body;
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
}
