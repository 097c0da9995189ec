/**
 * The upload plugin's public surface: the mount for createApp/startServer, the hooks it takes,
 * and the serializer the read engine shares so that media look the same everywhere.
 */
export { serveUploads, uploadActions, uploadMount } from './routes.ts';
export type { Authorize, FileEntity, FileListQuery, FilePage, FindFile, ListFiles, PageFiles, UploadAction, UploadMountOptions } from './routes.ts';
export { decodeMediaFormats, serializeFile, toIsoTimestamp, withUrlSigned } from './serialize.ts';
export type { FileRow, ListedMediaFile, MediaFile, MediaFormats } from './serialize.ts';
export type { MediaFormat } from './formats.ts';
export { checkUploadStorage } from './provider.ts';
