/**
 * The mutations of a content type, on the write engine REST uses:
 *
 *   collection type   create<T>(status = PUBLISHED, data, locale)   action create
 *                     update<T>(documentId, status, data, locale)   action update; null for an unknown document
 *                     delete<T>(documentId, locale)                 action delete; { documentId }, also
 *                                                                   for an unknown document (as Strapi)
 *   single type       update<T>(status, data, locale)               creates the document the first time
 *                     delete<T>(locale)                             NotFoundError when there is none
 *
 * Writes publish unless `status: DRAFT` (the argument's default is PUBLISHED, as in Strapi).
 * `locale` selects the version written or deleted; without it, the default locale. Unlike
 * Strapi 5.54, whose delete resolver ignores `locale` and deletes the default locale's version,
 * `delete<T>(documentId, locale: "fr")` deletes the fr version only.
 *
 * What a create or update answers is read back with one engine call planned from its selection,
 * in the status and locale written.
 */
import { authorize, canRead } from '../access.ts';
import { assertWithinBudget } from '../engine/budget.ts';
import { assertCallerInput } from '../engine/write-documents.ts';
import { typeAction } from '../permissions.ts';
import { NotFoundError } from '../errors.ts';
import type { DocumentRef, WriteOptions } from '../engine/types.ts';
import { contentTypeTarget } from '../query/targets.ts';
import type { ReadQuery, Status } from '../query/types.ts';
import { statusArg, writeLocale } from './args-versions.ts';
import type { GraphQLResolveInfo } from './graphql-js.ts';
import { writeBody } from './mutations-input.ts';
import type { Args, GraphqlContext, GraphqlRuntime, ObjectResolvers } from './resolvers-context.ts';
import { documentSelection, finishRead, readParts } from './resolvers-read.ts';
import type { ReadPlan } from './selection-plan.ts';
import type { ContentTypeBinding } from './schema-binding.ts';

export function mutationResolvers(runtime: GraphqlRuntime, binding: ContentTypeBinding): ObjectResolvers {
  const { schema, mutations } = binding;
  const { uid } = schema;
  const { documents } = runtime;
  const target = contentTypeTarget(schema);
  const resolvers: ObjectResolvers = {};

  const options = (args: Args): WriteOptions => {
    const locale = writeLocale(args, schema);
    return { status: statusArg(args['status']), ...(locale === undefined ? {} : { locale }) };
  };
  /** The mutation's data as a REST body, refused as REST refuses it (a relation to a type the caller may not read). */
  const body = (args: Args, context: GraphqlContext): unknown => {
    const data = writeBody(runtime.bindings, schema, args['data']);
    assertCallerInput(runtime.model, schema, data, (target) => canRead(context.access, target));
    return data;
  };

  /**
   * How the version a mutation writes is read back, as its selection asks: planned and measured
   * against the budget before the write (refused after it, the answer would hide the write).
   */
  const readBackPlan = (context: GraphqlContext, info: GraphQLResolveInfo): ReadPlan => {
    const { plan } = documentSelection(runtime, context, info, target);
    assertWithinBudget(readParts(plan), runtime.queryBudget);
    return plan;
  };
  /** The version just written, read with the plan readBackPlan made. */
  const readBack = async (ref: DocumentRef, status: Status, context: GraphqlContext, plan: ReadPlan) => {
    const query: ReadQuery = { ...readParts(plan), status, ...(ref.locale === undefined ? {} : { locale: ref.locale }) };
    const entity = await documents.findOne(uid, ref.documentId, query);
    if (entity !== null) finishRead(runtime, context, plan, [entity]);
    return entity;
  };

  if (mutations.create !== undefined) {
    resolvers[mutations.create] = async (_source, args, context, info) => {
      authorize(context.access, `${uid}.create`);
      const writeOptions = options(args);
      const plan = readBackPlan(context, info);
      const ref = await documents.create(uid, body(args, context), writeOptions);
      return readBack(ref, writeOptions.status, context, plan);
    };
  }

  resolvers[mutations.update] = async (_source, args, context, info) => {
    authorize(context.access, `${uid}.update`);
    const writeOptions = options(args);
    const plan = readBackPlan(context, info);
    const ref =
      schema.kind === 'singleType' ? await documents.putSingle(uid, body(args, context), writeOptions) : await documents.update(uid, String(args['documentId']), body(args, context), writeOptions);
    return ref === null ? null : readBack(ref, writeOptions.status, context, plan);
  };

  resolvers[mutations.delete] = async (_source, args, context) => {
    authorize(context.access, typeAction(uid, 'delete'));
    const locale = writeLocale(args, schema);
    const deleteOptions = locale === undefined ? {} : { locale };
    if (schema.kind === 'singleType') {
      const documentId = await singleDocumentId(runtime, binding, locale);
      if (documentId === undefined) throw new NotFoundError('Document not found');
      await documents.deleteSingle(uid, deleteOptions);
      return { documentId };
    }
    const documentId = String(args['documentId']);
    await documents.delete(uid, documentId, deleteOptions);
    return { documentId };
  };

  return resolvers;
}

/** The documentId of a single type's document in a locale, draft or published, if it exists. */
async function singleDocumentId(runtime: GraphqlRuntime, binding: ContentTypeBinding, locale: string | undefined): Promise<string | undefined> {
  const { schema } = binding;
  const version = (status: Status): ReadQuery => ({
    fields: [],
    populate: {},
    status,
    ...(schema.localized ? { locale: locale ?? runtime.i18n.defaultLocale } : {}),
  });
  const draft = await runtime.documents.findSingle(schema.uid, version('draft'));
  const found = draft ?? (schema.draftAndPublish ? await runtime.documents.findSingle(schema.uid, version('published')) : null);
  const documentId = found?.['documentId'];
  return typeof documentId === 'string' ? documentId : undefined;
}
