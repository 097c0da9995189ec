/**
 * Lookups over a project's GraphQL bindings (schema-binding.ts), plus the media library's
 * UploadFile, which Strapi serves like a collection type and capi reads with the same engine.
 */
import { UPLOAD_FILE_UID, uploadFileSchema } from '../upload/file-schema.ts';
import type { ComponentBinding, ContentTypeBinding, GraphqlBindings, GraphqlEnum } from './schema-binding.ts';

/** UploadFile's names in Strapi's schema: queries only; its two mutations are resolvers-upload.ts'. */
export const uploadFileBinding: ContentTypeBinding = {
  schema: uploadFileSchema,
  typeName: 'UploadFile',
  queries: { one: 'uploadFile', many: 'uploadFiles', connection: 'uploadFiles_connection' },
  mutations: { update: 'updateUploadFile', delete: 'deleteUploadFile' },
  enums: {},
  dynamicZones: {},
};

export interface BindingIndex {
  /** Content types of the model, in the bindings' order (not UploadFile). */
  readonly contentTypes: readonly ContentTypeBinding[];
  readonly components: readonly ComponentBinding[];
  /** A content type's or UploadFile's binding. */
  contentType(uid: string): ContentTypeBinding;
  component(uid: string): ComponentBinding;
  /** The component a GraphQL object type name stands for (`ComponentSharedQuote` → `shared.quote`). */
  componentOfType(typeName: string): string | undefined;
  /** The GraphQL type name of a component. */
  componentTypeName(uid: string): string | undefined;
  /** The enums of a content type's or component's enumeration attributes. */
  enumsOf(uid: string): Readonly<Record<string, GraphqlEnum>>;
}

export function bindingIndex(bindings: GraphqlBindings): BindingIndex {
  const types = new Map<string, ContentTypeBinding>([[UPLOAD_FILE_UID, uploadFileBinding], ...bindings.contentTypes.map((b) => [b.schema.uid, b] as const)]);
  const components = new Map(bindings.components.map((b) => [b.schema.uid, b]));
  const componentsByType = new Map(bindings.components.map((b) => [b.typeName, b.schema.uid]));
  const missing = (what: string, uid: string): Error => new Error(`GraphQL bindings: no ${what} ${uid} (generated code and runtime disagree)`);
  return {
    contentTypes: bindings.contentTypes,
    components: bindings.components,
    contentType(uid) {
      const binding = types.get(uid);
      if (binding === undefined) throw missing('content type', uid);
      return binding;
    },
    component(uid) {
      const binding = components.get(uid);
      if (binding === undefined) throw missing('component', uid);
      return binding;
    },
    componentOfType: (typeName) => componentsByType.get(typeName),
    componentTypeName: (uid) => components.get(uid)?.typeName,
    enumsOf: (uid) => types.get(uid)?.enums ?? components.get(uid)?.enums ?? {},
  };
}
