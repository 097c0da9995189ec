/**
 * The rules that keep client-supplied names and stored paths harmless. Every path the upload
 * plugin writes, moves, serves or deletes goes through `resolveInside`, so a name taken from a
 * request or from a database row can never reach outside the upload folder.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** Longest display name kept, in characters (file systems and browsers choke on more). */
export const maxFileNameLength = 255;

/** Thrown when a path would leave the folder it must stay in; a bug or an attack, never a client error. */
export class PathEscapeError extends Error {
  override readonly name = 'PathEscapeError';
}

// C0/C1 controls, and the bidirectional overrides that make `evil‮gnp.exe` read as `evil.exe.png`.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const invisible = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * A display name fit to store and show: the last path segment only (a browser may send
 * `C:\photos\a.png`), no control or direction-override characters, no `..`, no leading dots, at
 * most 255 characters with the extension kept. Never empty: `file` when nothing is left.
 */
export function sanitizeFileName(raw: string): string {
  const lastSegment = raw.normalize('NFC').split(/[/\\]/).pop() ?? '';
  let name = lastSegment
    .replace(invisible, '')
    .replace(/\.{2,}/g, '.')
    .replace(/^[\s.]+/, '')
    .trim();
  if (name.length > maxFileNameLength) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 17 ? name.slice(dot) : '';
    name = name.slice(0, maxFileNameLength - ext.length).trimEnd() + ext;
  }
  return name === '' ? 'file' : name;
}

/**
 * The extension of a (sanitized) file name when it is a plain one (`.png`, `.tar`): a dot and 1 to
 * 16 letters or digits; otherwise undefined, and the caller derives one from the content.
 */
export function plainExtension(fileName: string): string | undefined {
  const match = /\.[A-Za-z0-9]{1,16}$/.exec(fileName);
  return match !== null && match.index > 0 ? match[0] : undefined;
}

/** True for a name that is one path segment made of safe characters (what the plugin itself stores). */
export function isStoredFileName(name: string): boolean {
  return /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}$/.test(name) && !name.includes('..');
}

/**
 * `root/name`, checked: `name` must be one safe segment and the resolved path must be strictly
 * inside `root`. Throws PathEscapeError otherwise.
 */
export function resolveInside(root: string, name: string): string {
  if (!isStoredFileName(name)) throw new PathEscapeError(`refusing the file name ${JSON.stringify(name)}`);
  const base = resolve(root);
  const path = resolve(base, name);
  const rel = relative(base, path);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || rel.includes(sep)) {
    throw new PathEscapeError(`refusing a path outside ${base}: ${JSON.stringify(name)}`);
  }
  return path;
}

/**
 * The stored file name behind a local-provider URL (`/uploads/<name>`), or undefined when the URL
 * is not one (another provider, or a row that was tampered with).
 */
export function storedNameFromUrl(url: string): string | undefined {
  if (!url.startsWith('/uploads/')) return undefined;
  const name = url.slice('/uploads/'.length);
  return isStoredFileName(name) ? name : undefined;
}

/**
 * Extensions a browser may display inline from our origin without running anything: raster
 * images, audio, video, PDF and plain text. Everything else (SVG, HTML, XML, scripts, archives,
 * office files, unknown types) is served as an attachment: an allow-list, because a deny-list
 * misses the next active format.
 */
const inlineExtensions: ReadonlySet<string> = new Set([
  '.png',
  '.jpg',
  '.jpeg',
  '.jpe',
  '.gif',
  '.webp',
  '.avif',
  '.bmp',
  '.ico',
  '.tif',
  '.tiff',
  '.heic',
  '.heif',
  '.mp3',
  '.wav',
  '.ogg',
  '.oga',
  '.opus',
  '.m4a',
  '.aac',
  '.flac',
  '.weba',
  '.mp4',
  '.m4v',
  '.webm',
  '.ogv',
  '.mov',
  '.pdf',
  '.txt',
]);

export function servedInline(fileName: string): boolean {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 && inlineExtensions.has(fileName.slice(dot).toLowerCase());
}

/**
 * Headers of every file served from /uploads: the browser must neither guess another type
 * (nosniff) nor load anything on behalf of the file (CSP), and active formats are downloads.
 */
export function uploadResponseHeaders(fileName: string): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'",
    'Cross-Origin-Resource-Policy': 'cross-origin',
  };
  if (!servedInline(fileName)) headers['Content-Disposition'] = 'attachment';
  return headers;
}
