/**
 * Entity shapes shared by every generated project, in Strapi 5's REST shape. Generated per-type
 * entity interfaces (src/api/<name>/entity.ts) refer to these.
 */
import type { JsonValue } from './schema.ts';

/** One resized variant of an uploaded image (`thumbnail`, `small`, `medium`, `large`). */
export interface UploadFileFormat {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  path: string | null;
  width: number;
  height: number;
  /** Kilobytes, two decimals, as Strapi reports it. */
  size: number;
  sizeInBytes: number;
  url: string;
}

/** A media library file as it appears in populated media fields. */
export interface UploadFile {
  id: number;
  documentId: string;
  name: string;
  alternativeText: string | null;
  caption: string | null;
  focalPoint: JsonValue;
  width: number | null;
  height: number | null;
  formats: Partial<Record<'thumbnail' | 'small' | 'medium' | 'large', UploadFileFormat>> | null;
  hash: string;
  ext: string | null;
  mime: string;
  /** Kilobytes, two decimals, as Strapi reports it. */
  size: number;
  url: string;
  previewUrl: string | null;
  provider: string;
  provider_metadata: JsonValue;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
}

/** The system fields every document version carries. */
export interface DocumentFields {
  id: number;
  documentId: string;
  createdAt: string;
  updatedAt: string;
  publishedAt: string | null;
}
