/**
 * Reading an upload request: multer streams each part of field `files` straight to a file in the
 * request's work folder (never into memory), stopping at the size limit, and every way a body can
 * be wrong — malformed multipart, a limit exceeded, a bad `fileInfo` — becomes a client error in
 * Strapi's envelope instead of a 500.
 */
import { hasNul } from '../column-domains.ts';
import type { Request, Response } from 'express';
import multer from 'multer';
import { HttpError, PayloadTooLargeError, ValidationError, type ValidationIssue } from '../errors.ts';
import type { JsonValue } from '../schema.ts';
import { genericMime, isMimeAllowed, normalizeMime } from './mime.ts';

/** A file as multer stored it in the work folder. Its name and type are the client's claims. */
export interface ReceivedFile {
  readonly path: string;
  readonly originalName: string;
  readonly declaredMime: string;
  readonly size: number;
}

export interface MultipartBody {
  readonly files: readonly ReceivedFile[];
  /** Text fields, as multer's append-field nests them (`fileInfo[name]` → `{ fileInfo: { name } }`). */
  readonly fields: Readonly<Record<string, unknown>>;
}

export interface MultipartLimits {
  /** Largest file, in bytes. */
  readonly fileSize: number;
  /** Most files in one request. */
  readonly files: number;
  /** Types accepted (`UploadConfig.allowedMimeTypes`); null for all. */
  readonly allowedMimeTypes: readonly string[] | null;
}

export const filesField = 'files';

/**
 * Reads a multipart body into `workDir`. Undefined when the request is not multipart (the info
 * update may come as JSON). Files multer wrote before an error are left in `workDir`, which the
 * caller removes whatever happens.
 */
export function receiveMultipart(req: Request, res: Response, workDir: string, limits: MultipartLimits): Promise<MultipartBody | undefined> {
  if (!req.is('multipart/form-data')) return Promise.resolve(undefined);
  const middleware = multer({
    storage: multer.diskStorage({ destination: workDir }),
    // Browsers and undici send file names as raw UTF-8 without a charset parameter.
    defParamCharset: 'utf8',
    limits: {
      fileSize: limits.fileSize,
      files: limits.files,
      fields: 100,
      fieldSize: 1024 * 1024,
      parts: limits.files + 100,
      fieldNameSize: 200,
      fieldNestingDepth: 2,
      fieldArrayIndexLimit: 1000,
      headerPairs: 100,
    },
    fileFilter: (_req, file, accept) => {
      // Refuse a declared type early, before its bytes reach the disk; an undeclared one is
      // judged by its content once stored.
      const declared = normalizeMime(file.mimetype);
      if (declared !== genericMime && !isMimeAllowed(declared, limits.allowedMimeTypes)) {
        accept(notAllowed(declared));
        return;
      }
      accept(null, true);
    },
  }).array(filesField);

  return new Promise((resolve, reject) => {
    middleware(req, res, (error?: unknown) => {
      if (error !== undefined && error !== null) {
        reject(toClientError(error, limits));
        return;
      }
      const files = (Array.isArray(req.files) ? req.files : []).map((file): ReceivedFile => ({ path: file.path, originalName: file.originalname, declaredMime: file.mimetype, size: file.size }));
      resolve({ files, fields: (req.body ?? {}) as Record<string, unknown> });
    });
  });
}

export function notAllowed(mime: string): ValidationError {
  return new ValidationError(`File type ${mime} is not allowed`);
}

/** Multer's and busboy's errors as the client errors they are. */
function toClientError(error: unknown, limits: MultipartLimits): unknown {
  if (error instanceof HttpError) return error;
  if (error instanceof multer.MulterError) {
    switch (error.code) {
      case 'LIMIT_FILE_SIZE':
        return new PayloadTooLargeError('File too large', { sizeLimit: limits.fileSize });
      case 'LIMIT_FILE_COUNT':
        return new ValidationError(`Too many files: at most ${limits.files} per request`);
      case 'LIMIT_UNEXPECTED_FILE':
        return new ValidationError(`Unexpected file field "${error.field ?? ''}": files are sent in the "${filesField}" field`);
      default:
        return new ValidationError(`Invalid multipart body: ${error.message}`);
    }
  }
  // The disk failing (ENOSPC, EACCES, EMFILE) is the server's problem, not the client's: a 500.
  if (error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string') return error;
  // busboy: "Unexpected end of form", "Malformed part header", "Multipart: Boundary not found",
  // and a client that went away mid-request.
  return new ValidationError('Invalid multipart body');
}

/** What a client may say about a file. Absent keys keep the default (or the current value). */
export interface FileInfo {
  readonly name?: string | null;
  readonly alternativeText?: string | null;
  readonly caption?: string | null;
}

const infoKeys = ['name', 'alternativeText', 'caption'] as const;

/**
 * `fileInfo` as a JSON string, several JSON strings (one field per file), an object (from
 * `fileInfo[name]=...` fields or a JSON body) or an array; one entry per file, `{}` for files
 * it does not describe. Unknown keys (Strapi's `folder`) are ignored, as Strapi does.
 */
export function parseFileInfo(raw: unknown, fileCount: number): FileInfo[] {
  const count = Math.max(fileCount, 1);
  const value = decode(raw, ['fileInfo']);
  if (value === undefined || value === null) return Array.from({ length: count }, () => ({}));
  const entries = Array.isArray(value) ? value : [value];
  if (entries.length > count) {
    throw ValidationError.of(`fileInfo has ${entries.length} entries for ${count} file${count === 1 ? '' : 's'}`, [
      { path: ['fileInfo'], message: `fileInfo must have at most one entry per file (${count})`, name: 'ValidationError' },
    ]);
  }
  const multi = Array.isArray(value);
  const issues: ValidationIssue[] = [];
  const infos = Array.from({ length: count }, (_, index): FileInfo => {
    const path = multi ? ['fileInfo', String(index)] : ['fileInfo'];
    const entry: unknown = entries[index];
    if (entry === undefined || entry === null) return {};
    if (typeof entry !== 'object' || Array.isArray(entry)) {
      issues.push({ path, message: `${path.join('.')} must be a \`object\` type, but the final value was: \`${show(entry)}\`.`, name: 'ValidationError' });
      return {};
    }
    const info: { -readonly [K in keyof FileInfo]: FileInfo[K] } = {};
    for (const key of infoKeys) {
      const field: unknown = (entry as Record<string, unknown>)[key];
      if (field === undefined) continue;
      if (typeof field === 'string' && hasNul(field)) {
        const at = [...path, key];
        issues.push({ path: at, message: `${at.join('.')} must be text without NUL (\\u0000) characters`, name: 'ValidationError' });
      } else if (field === null || typeof field === 'string') {
        info[key] = field;
      } else {
        const at = [...path, key];
        issues.push({ path: at, message: `${at.join('.')} must be a \`string\` type, but the final value was: \`${show(field)}\`.`, name: 'ValidationError' });
      }
    }
    return info;
  });
  if (issues.length > 0) throw ValidationError.of(issues[0]?.message ?? 'Invalid fileInfo', issues);
  return infos;
}

/** A JSON string is parsed; anything else is taken as already structured. */
function decode(value: unknown, path: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item: unknown, index) => decode(item, [...path, String(index)]));
  if (typeof value !== 'string') return value;
  if (value.trim() === '') return undefined;
  try {
    return JSON.parse(value) as JsonValue;
  } catch {
    throw ValidationError.of(`${path.join('.')} is not valid JSON`, [{ path: [...path], message: `${path.join('.')} is not valid JSON`, name: 'ValidationError' }]);
  }
}

function show(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
