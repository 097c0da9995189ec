/**
 * Image dimensions and the resized copies Strapi calls formats: `thumbnail` (fit within 245x156)
 * and the responsive `large` (1000), `medium` (750), `small` (500) — each made only when the
 * original is larger than it, in the original's format, named `<format>_<hash><ext>`.
 */
import sharp, { type FormatEnum } from 'sharp';
import { bytesToKilobytes } from './hash.ts';
import { resolveInside } from './safety.ts';

// sharp keeps up to 20 input files open by default; work files are read once and then deleted,
// and an open handle would keep a deleted file's disk space in use.
sharp.cache({ files: 0 });

/** One resized copy, as stored in `files.formats` and returned to clients (Strapi's key order). */
export interface MediaFormat {
  readonly name: string;
  readonly hash: string;
  readonly ext: string | null;
  readonly mime: string;
  readonly path: null;
  readonly width: number;
  readonly height: number;
  /** Kilobytes, 2 decimals. */
  readonly size: number;
  readonly sizeInBytes: number;
  readonly url: string;
}

export type FormatName = 'thumbnail' | 'large' | 'medium' | 'small';

export interface FormatSpec {
  readonly name: FormatName;
  readonly width: number;
  readonly height: number;
}

export const thumbnailSize = { width: 245, height: 156 } as const;
/** In Strapi's order, which is also the order of the keys in `formats`. */
export const breakpoints: ReadonlyArray<readonly [Exclude<FormatName, 'thumbnail'>, number]> = [
  ['large', 1000],
  ['medium', 750],
  ['small', 500],
];

/** Formats sharp reads dimensions from (Strapi's FORMATS_TO_PROCESS). */
const measured: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp', 'tiff', 'gif', 'svg', 'heif']);
/** Formats that get resized copies (Strapi's FORMATS_TO_RESIZE). */
const resized: ReadonlySet<string> = new Set(['jpeg', 'png', 'webp', 'tiff', 'gif']);

export interface ImageFacts {
  readonly width: number | null;
  readonly height: number | null;
  /** The sharp format to write resized copies in; undefined when the file gets none. */
  readonly resizeAs?: keyof FormatEnum;
}

const noImage: ImageFacts = { width: null, height: null };

/**
 * How sharp reads uploads, for checking and for resizing alike: damaged data (a truncated pixel
 * stream, a corrupt chunk) fails; the benign warnings many cameras' JPEGs carry do not.
 */
const decoding = { failOn: 'error' } as const satisfies sharp.SharpOptions;

/** sharp's default `limitInputPixels`: larger images are refused before they are decoded. */
export const maxImagePixels = 0x3fff * 0x3fff;

/** Why an image could not be read: its data is damaged, or it has more pixels than are processed. */
export type UnreadableReason = 'damaged' | 'too large';

/** Thrown when a file that claims to be a raster image cannot be decoded. */
export class UnreadableImageError extends Error {
  override readonly name = 'UnreadableImageError';
  constructor(
    message: string,
    readonly reason: UnreadableReason,
  ) {
    super(message);
  }
}

/**
 * Width, height and resizability of an image file; nulls for anything else. A raster image that
 * sharp can decode is decoded in full, since a header can be intact above a pixel stream that is
 * cut short (the first frame of an animation: the one its formats are made from). sharp's pixel
 * limit refuses decompression bombs before decoding them.
 */
export async function readImageFacts(path: string, mime: string): Promise<ImageFacts> {
  if (!mime.startsWith('image/')) return noImage;
  // SVG and exotic types are stored without dimensions; a broken raster image is refused.
  const raster = mime !== 'image/svg+xml' && /^image\/(jpeg|png|webp|tiff|gif|avif|heic)$/.test(mime);
  let metadata: sharp.Metadata;
  try {
    metadata = await sharp(path, decoding).metadata();
  } catch (error) {
    if (!raster) return noImage;
    throw unreadable(error);
  }
  if (!measured.has(metadata.format) || metadata.width === undefined || metadata.height === undefined) return noImage;
  if (isDecodable(metadata)) await decodeFully(path);
  const facts = { width: metadata.width, height: metadata.height };
  return resized.has(metadata.format) ? { ...facts, resizeAs: metadata.format } : facts;
}

/**
 * The images sharp can decode here: SVG is not rasterised, and prebuilt sharp reads HEIC (HEVC)
 * headers but has no HEVC decoder, so an iPhone photo keeps being stored by its header alone.
 */
function isDecodable(metadata: sharp.Metadata): boolean {
  return resized.has(metadata.format) || (metadata.format === 'heif' && metadata.compression === 'av1');
}

/** Runs every pixel through the decoder without keeping them (libvips streams the statistics). */
async function decodeFully(path: string): Promise<void> {
  try {
    await sharp(path, decoding).stats();
  } catch (error) {
    throw unreadable(error);
  }
}

function unreadable(error: unknown): UnreadableImageError {
  const message = error instanceof Error ? error.message : String(error);
  return new UnreadableImageError(message, /exceeds pixel limit/i.test(message) ? 'too large' : 'damaged');
}

/** The formats an image of this size gets: thumbnail first, then large, medium, small. */
export function formatsFor(width: number, height: number): FormatSpec[] {
  const specs: FormatSpec[] = [];
  if (width > thumbnailSize.width || height > thumbnailSize.height) specs.push({ name: 'thumbnail', ...thumbnailSize });
  for (const [name, size] of breakpoints) {
    if (size < width || size < height) specs.push({ name, width: size, height: size });
  }
  return specs;
}

/** What a stored file is called, for naming its formats. */
export interface FormatSource {
  readonly path: string;
  readonly name: string;
  readonly hash: string;
  readonly ext: string | null;
  readonly mime: string;
}

export interface GeneratedFormat {
  readonly name: FormatName;
  /** File name under the upload folder, `<format>_<hash><ext>`. */
  readonly fileName: string;
  /** Where it was written (a work folder, until it is moved into place). */
  readonly stagedPath: string;
  readonly format: MediaFormat;
}

/**
 * Writes every format `facts` call for into `workDir`, one at a time to bound memory. `urlOf`
 * is the upload provider's: where a stored file name is served.
 */
export async function generateFormats(source: FormatSource, facts: ImageFacts, workDir: string, urlOf: (fileName: string) => string): Promise<GeneratedFormat[]> {
  if (facts.resizeAs === undefined || facts.width === null || facts.height === null) return [];
  const generated: GeneratedFormat[] = [];
  for (const spec of formatsFor(facts.width, facts.height)) {
    const hash = `${spec.name}_${source.hash}`;
    const fileName = `${hash}${source.ext ?? ''}`;
    const stagedPath = resolveInside(workDir, fileName);
    const info = await sharp(source.path, decoding).resize({ width: spec.width, height: spec.height, fit: 'inside' }).toFormat(facts.resizeAs).toFile(stagedPath);
    generated.push({
      name: spec.name,
      fileName,
      stagedPath,
      format: {
        name: `${spec.name}_${source.name}`,
        hash,
        ext: source.ext,
        mime: source.mime,
        path: null,
        width: info.width,
        height: info.height,
        size: bytesToKilobytes(info.size),
        sizeInBytes: info.size,
        url: urlOf(fileName),
      },
    });
  }
  return generated;
}
