/**
 * The media library's own GraphQL operations (its queries are a content type's, resolvers-query.ts):
 *
 *   updateUploadFile(id: ID!, info: FileInfoInput): UploadFile!   action plugin::upload.content-api.upload
 *   deleteUploadFile(id: ID!): UploadFile                         action plugin::upload.content-api.destroy
 *
 * Both take the numeric file id, as in Strapi 5 (files kept v4's identifier in these two
 * mutations). Updating an unknown file is STRAPI_NOT_FOUND_ERROR "file.notFound", as the REST
 * route answers; deleting one answers null, as Strapi does.
 *
 * `UploadFile.related` (the documents and components holding a file) is declared by Strapi's
 * schema but fails there for every file ("Missing schema in validateQuery"); capi says plainly
 * that it does not serve it.
 */
import { authorize } from '../access.ts';
import { ApplicationError, NotFoundError } from '../errors.ts';
import type { FileInfo } from '../upload/multipart.ts';
import { parseFileId } from '../upload/repository.ts';
import { uploadActions } from '../upload/routes.ts';
import { fileNotFoundMessage } from '../upload/service.ts';
import { isInputObject } from './args.ts';
import type { GraphqlRuntime, ObjectResolvers } from './resolvers-context.ts';

export function uploadMutationResolvers(runtime: GraphqlRuntime): ObjectResolvers {
  return {
    updateUploadFile: async (_source, args, context) => {
      authorize(context.access, uploadActions.upload);
      const id = parseFileId(String(args['id']));
      if (id === undefined) throw new NotFoundError(fileNotFoundMessage);
      return runtime.uploads.updateInfo(id, fileInfo(args['info']));
    },
    deleteUploadFile: async (_source, args, context) => {
      authorize(context.access, uploadActions.destroy);
      const id = parseFileId(String(args['id']));
      return (id === undefined ? undefined : await runtime.uploads.remove(id)) ?? null;
    },
  };
}

/** `FileInfoInput`: absent and null keys keep the current values. */
function fileInfo(input: unknown): FileInfo {
  if (!isInputObject(input)) return {};
  const info: { -readonly [K in keyof FileInfo]: FileInfo[K] } = {};
  for (const key of ['name', 'alternativeText', 'caption'] as const) {
    const value = input[key];
    if (typeof value === 'string') info[key] = value;
  }
  return info;
}

export function uploadFileResolvers(): ObjectResolvers {
  return {
    related: () => {
      throw new ApplicationError('UploadFile.related is not served: query the documents that hold the file instead');
    },
  };
}
