/**
 * The media library's files seen as a content type, so that the one query engine reads, filters,
 * sorts and serializes them like any other type (`/api/upload/files`, populated media fields).
 * Columns are those of the `files` table emitted into every project's schema.prisma.
 */
import type { ContentTypeSchema, Field, ScalarType } from '../schema.ts';

export const UPLOAD_FILE_UID = 'plugin::upload.file';
export const FILE_LINK_TABLE = 'files_related_mph';

function scalar(type: ScalarType, column: string): Field {
  return { kind: 'scalar', type, column, required: false, private: false, localized: false, unique: false };
}

export const uploadFileSchema: ContentTypeSchema = {
  uid: UPLOAD_FILE_UID,
  kind: 'collectionType',
  singularName: 'file',
  pluralName: 'files',
  table: 'files',
  draftAndPublish: false,
  localized: false,
  attributes: {
    name: scalar('string', 'name'),
    alternativeText: scalar('string', 'alternative_text'),
    caption: scalar('string', 'caption'),
    focalPoint: scalar('json', 'focal_point'),
    width: scalar('integer', 'width'),
    height: scalar('integer', 'height'),
    formats: scalar('json', 'formats'),
    hash: scalar('string', 'hash'),
    ext: scalar('string', 'ext'),
    mime: scalar('string', 'mime'),
    size: scalar('decimal', 'size'),
    url: scalar('string', 'url'),
    previewUrl: scalar('string', 'preview_url'),
    provider: scalar('string', 'provider'),
    provider_metadata: scalar('json', 'provider_metadata'),
    folderPath: { ...scalar('string', 'folder_path'), private: true },
  },
};
