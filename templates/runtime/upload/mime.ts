/**
 * What a file really is. The type a client declares is only a claim: it is checked against the
 * content's magic bytes (file-type), and text formats that have none (SVG, HTML) are recognised
 * by their markup, so that an SVG cannot pass as a PNG or plain text, nor a PNG as a PDF.
 */
import { open } from 'node:fs/promises';
import { fileTypeFromFile, supportedMimeTypes } from 'file-type';
import { ValidationError } from '../errors.ts';

export const genericMime = 'application/octet-stream';

/** Spellings of one type that clients and operating systems use interchangeably. */
const aliases: Readonly<Record<string, string>> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
  'image/x-icon': 'image/vnd.microsoft.icon',
  'image/x-ms-bmp': 'image/bmp',
  'image/heif': 'image/heic',
  'image/x-citrix-jpeg': 'image/jpeg',
  'application/x-pdf': 'application/pdf',
  'application/x-zip-compressed': 'application/zip',
  'application/x-zip': 'application/zip',
  'application/x-gzip': 'application/gzip',
  'text/xml': 'application/xml',
  'audio/mp3': 'audio/mpeg',
  'audio/x-mpeg': 'audio/mpeg',
  'audio/x-wav': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/x-m4a': 'audio/mp4',
  'audio/m4a': 'audio/mp4',
  'audio/x-flac': 'audio/flac',
  'video/x-m4v': 'video/mp4',
  'audio/webm': 'video/webm',
  'video/x-matroska': 'video/webm',
  'audio/x-matroska': 'video/webm',
  'application/ogg': 'audio/ogg',
  'video/ogg': 'audio/ogg',
  'audio/opus': 'audio/ogg',
};

/**
 * Containers whose magic bytes say less (or more) than the declared type: an MP4 may hold audio
 * only, a DOCX is a ZIP. A declared type and a detected one in the same group agree.
 */
const families: readonly ReadonlySet<string>[] = [
  // file-type calls an animated PNG image/apng; every client declares it image/png.
  new Set(['image/png', 'image/apng']),
  new Set(['video/mp4', 'audio/mp4', 'video/quicktime', 'video/3gpp', 'audio/3gpp', 'video/3gpp2']),
  new Set([
    'application/zip',
    'application/epub+zip',
    'application/java-archive',
    'application/vnd.android.package-archive',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.template',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.template',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    'application/vnd.openxmlformats-officedocument.presentationml.template',
    'application/vnd.openxmlformats-officedocument.presentationml.slideshow',
    'application/vnd.oasis.opendocument.text',
    'application/vnd.oasis.opendocument.text-template',
    'application/vnd.oasis.opendocument.spreadsheet',
    'application/vnd.oasis.opendocument.presentation',
    'application/vnd.oasis.opendocument.graphics',
  ]),
  new Set(['application/x-cfb', 'application/msword', 'application/vnd.ms-excel', 'application/vnd.ms-powerpoint', 'application/vnd.ms-outlook']),
];

/** Lower case and without parameters (`Image/PNG; q=1` → `image/png`); the generic type when malformed. */
export function normalizeMime(mime: string): string {
  const bare = mime.split(';')[0]?.trim().toLowerCase() ?? '';
  return /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(bare) ? bare : genericMime;
}

/** Normalized, with aliases folded (`image/jpg` → `image/jpeg`): the form types are compared in. */
export function canonicalMime(mime: string): string {
  const bare = normalizeMime(mime);
  return aliases[bare] ?? bare;
}

function agree(declared: string, detected: string): boolean {
  if (declared === detected) return true;
  return families.some((family) => family.has(declared) && family.has(detected));
}

/** `allowed` entries are `type/subtype` or `type/*`; null allows everything. */
export function isMimeAllowed(mime: string, allowed: readonly string[] | null): boolean {
  if (allowed === null) return true;
  const canonical = canonicalMime(mime);
  return allowed.some((pattern) => {
    const p = pattern.toLowerCase();
    return p.endsWith('/*') ? canonical.startsWith(p.slice(0, -1)) : canonicalMime(p) === canonical;
  });
}

/** Kinds of markup recognised in files without magic bytes. */
export type TextKind = 'svg' | 'html' | 'xml' | 'text' | 'binary';

const sniffBytes = 64 * 1024;

/**
 * Recognises SVG and HTML by their first element, skipping what may precede it (BOM, XML
 * declaration, processing instructions, comments, doctype). A NUL byte means binary.
 */
export function sniffText(head: Uint8Array): TextKind {
  if (head.includes(0)) return 'binary';
  let text = new TextDecoder('utf-8', { fatal: false }).decode(head).replace(/^\ufeff/, '');
  if (/^\s*<!doctype\s+html/i.test(text)) return 'html';
  // Skip prolog: whitespace, <?...?>, <!--...-->, <!DOCTYPE ...> (with an internal subset).
  for (;;) {
    const trimmed = text.replace(/^\s+/, '');
    const prolog = /^(<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!doctype[^[>]*(\[[\s\S]*?\])?\s*>)/i.exec(trimmed);
    if (prolog === null) {
      text = trimmed;
      break;
    }
    text = trimmed.slice(prolog[0].length);
  }
  if (/^<svg[\s>/:]/i.test(text) || /^<[a-z][\w.-]*:svg[\s>/]/i.test(text)) return 'svg';
  if (/^<(html|head|body|script|iframe|object|embed|meta|link|style|div|p|a|img|form|frameset|base|template|title)[\s>/]/i.test(text)) return 'html';
  if (/^<[a-z_][\w.:-]*[\s>/]/i.test(text)) return 'xml';
  return 'text';
}

async function readHead(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(sniffBytes);
    const { bytesRead } = await handle.read(buffer, 0, sniffBytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * The refusal of a file whose content starts as a known kind and then breaks off or contradicts
 * itself (a truncated archive, a cut image): the client's file is damaged, whatever it claims.
 */
export function undecodableContent(displayName: string, mime: string | undefined): ValidationError {
  return new ValidationError(`The content of "${displayName}" is truncated or corrupt: it cannot be decoded${mime === undefined ? '' : ` as ${mime}`}`);
}

/**
 * file-type's verdict. It reads the structure behind a signature (ZIP entries, TIFF directories)
 * and throws when that structure ends early or makes no sense: damaged content, the client's
 * problem. A failing read of the disk is the server's and stays an error.
 */
async function detectType(path: string, undecodable: () => ValidationError): Promise<{ mime: string } | undefined> {
  try {
    return await fileTypeFromFile(path);
  } catch (error) {
    if (error instanceof Error && typeof (error as NodeJS.ErrnoException).syscall === 'string') throw error;
    throw undecodable();
  }
}

/** Types file-type can recognise by magic bytes; a file declared as one of them must show them. */
const magicTypes: ReadonlySet<string> = new Set([...supportedMimeTypes].map(canonicalMime).filter((mime) => !mime.startsWith('text/') && mime !== 'application/xml'));

const svgMime = 'image/svg+xml';
const htmlMimes: ReadonlySet<string> = new Set(['text/html', 'application/xhtml+xml']);

/**
 * The type to store for a file, after checking the declared one against the content. Throws a
 * ValidationError (naming the file) when they disagree. A declaration of
 * `application/octet-stream` (or none) takes the type of the content when it is recognised.
 */
export async function verifyContentType(path: string, declaredRaw: string, displayName: string): Promise<string> {
  // Compared in canonical form, stored as declared (normalized): Strapi keeps the client's spelling.
  const stored = normalizeMime(declaredRaw);
  const declared = canonicalMime(stored);
  const mismatch = (actual: string): ValidationError => new ValidationError(`The content of "${displayName}" does not match its type ${stored}${actual === '' ? '' : ` (it is ${actual})`}`);

  const detected = await detectType(path, () => undecodableContent(displayName, declared === genericMime ? undefined : stored));
  const detectedMime = detected === undefined ? undefined : canonicalMime(detected.mime);
  if (detectedMime !== undefined && detectedMime !== 'application/xml') {
    if (declared === genericMime) return detectedMime;
    if (!agree(declared, detectedMime)) throw mismatch(detectedMime);
    return stored;
  }

  // No magic bytes (or just an XML declaration): look at the markup.
  const kind = sniffText(await readHead(path));
  if (kind === 'svg') {
    if (declared === svgMime) return stored;
    if (declared === genericMime) return svgMime;
    throw mismatch(svgMime);
  }
  if (declared === svgMime) throw mismatch(kind === 'html' ? 'text/html' : '');
  if (kind === 'html') {
    if (htmlMimes.has(declared)) return stored;
    if (declared === genericMime) return 'text/html';
    throw mismatch('text/html');
  }
  if (magicTypes.has(declared)) throw mismatch('');
  if (declared === genericMime && detectedMime !== undefined) return detectedMime;
  return stored;
}
