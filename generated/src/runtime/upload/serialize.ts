/**
 * A `files` row as the API returns it: Strapi 5's media object, every field, in Strapi's key
 * order. The upload routes and the read engine's populated media fields both use
 * `serializeFile`, so a file looks the same byte for byte wherever it appears.
 */
import type { JsonValue } from '../schema.ts';
import type { MediaFormat } from './formats.ts';

/** A row of `files` as either driver returns it (`SELECT * FROM files`). */
export type FileRow = Readonly<Record<string, unknown>>;

export type MediaFormats = { readonly [format: string]: MediaFormat };

export interface MediaFile {
  readonly id: number;
  readonly documentId: string;
  readonly name: string;
  readonly alternativeText: string | null;
  readonly caption: string | null;
  readonly focalPoint: JsonValue;
  readonly width: number | null;
  readonly height: number | null;
  readonly formats: MediaFormats | null;
  readonly hash: string;
  readonly ext: string | null;
  readonly mime: string;
  /** Kilobytes, 2 decimals. */
  readonly size: number;
  readonly url: string;
  readonly previewUrl: string | null;
  readonly provider: string;
  readonly provider_metadata: JsonValue;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly publishedAt: string | null;
}

/** What `/api/upload/files` and `/api/upload/files/:id` add (Strapi signs private-provider URLs). */
export interface ListedMediaFile extends MediaFile {
  readonly isUrlSigned: false;
}

export function serializeFile(row: FileRow): MediaFile {
  return {
    id: Number(row.id),
    documentId: String(row.document_id),
    name: String(row.name),
    alternativeText: nullableString(row.alternative_text),
    caption: nullableString(row.caption),
    focalPoint: json(row.focal_point),
    width: nullableInteger(row.width),
    height: nullableInteger(row.height),
    formats: decodeMediaFormats(row.formats),
    hash: String(row.hash),
    ext: nullableString(row.ext),
    mime: String(row.mime),
    size: Math.round(Number(row.size) * 100) / 100,
    url: String(row.url),
    previewUrl: nullableString(row.preview_url),
    provider: String(row.provider),
    provider_metadata: json(row.provider_metadata),
    createdAt: toIsoTimestamp(row.created_at) ?? '',
    updatedAt: toIsoTimestamp(row.updated_at) ?? '',
    publishedAt: toIsoTimestamp(row.published_at),
  };
}

export function withUrlSigned(file: MediaFile): ListedMediaFile {
  return { ...file, isUrlSigned: false };
}

/**
 * A stored timestamp as `YYYY-MM-DDTHH:mm:ss.sssZ`: SQLite holds the ISO string the runtime
 * wrote, PostgreSQL sends `2025-01-02 03:04:05.678+00` for TIMESTAMPTZ; a Date or epoch
 * milliseconds (written by another tool) are accepted too. Null for null or unreadable values.
 */
export function toIsoTimestamp(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value === 'number' || typeof value === 'bigint') {
    const date = new Date(Number(value));
    return Number.isNaN(date.getTime()) ? null : date.toISOString();
  }
  if (typeof value !== 'string') return null;
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i.exec(value.trim());
  if (match === null) return null;
  const [, day, time, zone] = match;
  const offset = zone === undefined || zone.toUpperCase() === 'Z' ? 'Z' : zone.length === 3 ? `${zone}:00` : zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const date = new Date(`${day}T${time}${offset}`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function nullableString(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

function nullableInteger(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

/** JSON columns are TEXT on both databases; a JSONB column (pg parses it) is accepted as is. */
function json(value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') return value as JsonValue;
  try {
    return JSON.parse(value) as JsonValue;
  } catch {
    return null;
  }
}

const formatOrder = ['thumbnail', 'large', 'medium', 'small'];
const formatKeyOrder = ['name', 'hash', 'ext', 'mime', 'path', 'width', 'height', 'size', 'sizeInBytes', 'url'];

/**
 * The `files.formats` column as the API returns it: the formats in Strapi's order, each with its
 * keys in Strapi's order, null when there are none. PostgreSQL's JSONB keeps keys sorted by
 * length, not as written, and a file must serialize the same on both databases. The read engine
 * must decode this column with it too, for populated media to match `serializeFile` byte for byte.
 */
export function decodeMediaFormats(value: unknown): MediaFormats | null {
  const parsed = json(value);
  if (!isObject(parsed) || Object.keys(parsed).length === 0) return null;
  const ordered: Record<string, JsonValue> = {};
  for (const name of inOrder(Object.keys(parsed), formatOrder)) {
    const format = parsed[name] ?? null;
    ordered[name] = isObject(format) ? Object.fromEntries(inOrder(Object.keys(format), formatKeyOrder).map((key) => [key, format[key] ?? null])) : format;
  }
  return ordered as unknown as MediaFormats;
}

/** `keys` with those listed in `order` first, in that order, then the others as they came. */
function inOrder(keys: readonly string[], order: readonly string[]): string[] {
  return [...order.filter((key) => keys.includes(key)), ...keys.filter((key) => !order.includes(key))];
}

function isObject(value: JsonValue | undefined): value is { [key: string]: JsonValue } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
