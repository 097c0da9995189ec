/**
 * Surrogate keys of a GraphQL answer: the type key of every content type (and UploadFile) whose
 * object type the operation selects, at any depth, through fragments and unions, found with
 * graphql-js' TypeInfo over the served schema. Type keys only: a GraphQL answer is keyed by
 * aliases the caller chose, so its documents are not read off it; a write to any document of a
 * selected type purges it (purge.ts sends every write's type key).
 */
import { buildASTSchema, getNamedType, parse, TypeInfo, visit, visitWithTypeInfo, type DocumentNode } from '../graphql/graphql-js.ts';
import { LruCache } from '../engine/lru.ts';
import { AnswerKeys } from './keys.ts';

/** Distinct query texts whose keys are remembered. */
const REMEMBERED = 500;

/** `typeNames`: the GraphQL object type name of each content type, by uid. */
export function graphqlKeys(typeDefs: DocumentNode, typeNames: ReadonlyMap<string, string>): (query: string) => AnswerKeys {
  const schema = buildASTSchema(typeDefs, { assumeValidSDL: true });
  const uids = new Map([...typeNames].map(([uid, name]) => [name, uid]));
  const remembered = new LruCache<string, AnswerKeys>(REMEMBERED);
  return (query) => {
    const known = remembered.get(query);
    if (known !== undefined) return known;
    const keys = new AnswerKeys();
    const typeInfo = new TypeInfo(schema);
    visit(
      parse(query),
      visitWithTypeInfo(typeInfo, {
        Field: () => {
          const type = getNamedType(typeInfo.getType());
          const uid = type === undefined ? undefined : uids.get(type.name);
          if (uid !== undefined) keys.type(uid);
        },
      }),
    );
    remembered.set(query, keys);
    return keys;
  };
}
