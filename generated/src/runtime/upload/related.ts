/**
 * `populate=related` on `/api/upload/files`: each file with the entries that use it, as Strapi
 * answers it. `related` is the file's side of the media links (`files_related_mph`), a
 * polymorphic relation: every linked row, draft and published versions and every locale alike,
 * in link order, each with its scalar fields (as a `find` returns them) and `__type`, its
 * content type's uid. As Strapi's sanitizer does, entries of types the caller may not `find`,
 * and component rows, are left out.
 *
 * Statements: one for the links of all files, then one per linked content type and version
 * status, whatever the number of files or links.
 */
import type { Queryable, Row } from '../database.ts';
import type { Entity, ReadEngine } from '../engine/types.ts';
import { column, inIds, joinFragments, fragment, quote } from '../engine/sql.ts';
import type { ListQuery, Status } from '../query/types.ts';
import { booleanLike, commaList, isRecord, type RawRecord } from '../query/raw.ts';
import type { ModelSchema } from '../schema.ts';
import { FILE_LINK_TABLE } from './file-schema.ts';

export const RELATED = 'related';

/** A `populate` value without `related`, and whether it asked for it. */
export interface PopulateSplit {
  readonly related: boolean;
  /** What is left for the query parser; undefined when nothing is. */
  readonly rest: unknown;
}

/** Finds `related` in any of populate's forms: `*`, a (comma) list, an object, or both mixed. */
export function splitRelated(populate: unknown): PopulateSplit {
  if (populate === '*') return { related: true, rest: populate };
  if (typeof populate === 'string') return splitList([populate]);
  if (Array.isArray(populate) && populate.every((item) => typeof item === 'string')) return splitList(populate as string[]);
  if (!isRecord(populate) || (!Object.hasOwn(populate, RELATED) && !Object.values(populate).some(isRelatedPath))) return { related: false, rest: populate };
  const rest: Record<string, unknown> = {};
  let related = false;
  for (const [key, value] of Object.entries(populate)) {
    if (key === RELATED) related = booleanLike(value) ?? isRecord(value);
    else if (isRelatedPath(value)) related = true;
    else rest[key] = value;
  }
  return { related, rest: Object.keys(rest).length === 0 ? undefined : rest };
}

function isRelatedPath(value: unknown): boolean {
  return typeof value === 'string' && commaList(value).includes(RELATED);
}

function splitList(items: readonly string[]): PopulateSplit {
  const paths = items.flatMap(commaList);
  const rest = paths.filter((path) => path !== RELATED);
  return { related: rest.length < paths.length, rest: rest.length === 0 ? undefined : rest };
}

/** The query string record with `populate` replaced by what the parser should see. */
export function withPopulate(raw: RawRecord, rest: unknown): RawRecord {
  const { populate: _populate, ...others } = raw;
  return rest === undefined ? others : { ...others, populate: rest };
}

interface Link {
  readonly file: number;
  readonly type: string;
  readonly id: number;
}

export interface RelatedContext {
  readonly db: Queryable;
  readonly documents: Pick<ReadEngine, 'findMany'>;
  readonly model: ModelSchema;
  /** Whether the caller may `find` entries of a content type. */
  readonly canRead: (uid: string) => boolean;
}

/** Adds `related` to each file (files are the engine's entities, with `id`), in place. */
export async function attachRelated(ctx: RelatedContext, files: readonly Entity[]): Promise<void> {
  for (const file of files) file[RELATED] = [];
  const ids = files.map((file) => Number(file['id']));
  if (ids.length === 0) return;
  const links = await linksOf(ctx.db, ids);
  const readable = links.filter((link) => ctx.model.contentTypes[link.type] !== undefined && ctx.canRead(link.type));
  const entries = await entriesOf(ctx, readable);
  const byId = new Map(files.map((file) => [Number(file['id']), file]));
  for (const link of readable) {
    const entry = entries.get(`${link.type}#${link.id}`);
    const list = byId.get(link.file)?.[RELATED];
    if (entry !== undefined && Array.isArray(list)) list.push(entry);
  }
}

async function linksOf(db: Queryable, ids: readonly number[]): Promise<Link[]> {
  const m = 'm';
  const sql = joinFragments(
    [
      fragment(
        `SELECT ${column(m, 'file_id')} AS ${quote('file')}, ${column(m, 'related_type')} AS ${quote('type')}, ${column(m, 'related_id')} AS ${quote('id')} FROM ${quote(FILE_LINK_TABLE)} ${m} WHERE `,
      ),
      inIds(db.dialect, column(m, 'file_id'), ids, 'integer'),
      fragment(` ORDER BY ${column(m, 'file_id')}, ${column(m, 'ord')}, ${column(m, 'id')}`),
    ],
    '',
  );
  const rows = await db.query<Row>(sql.sql, sql.params);
  return rows.map((row) => ({ file: Number(row['file']), type: String(row['type']), id: Number(row['id']) }));
}

/** Every linked row by `type#id`, `__type` first: one read per type and status. */
async function entriesOf(ctx: RelatedContext, links: readonly Link[]): Promise<Map<string, Entity>> {
  const idsByType = new Map<string, Set<number>>();
  for (const link of links) {
    let ids = idsByType.get(link.type);
    if (ids === undefined) idsByType.set(link.type, (ids = new Set()));
    ids.add(link.id);
  }
  const entries = new Map<string, Entity>();
  const reads: Promise<void>[] = [];
  for (const [type, ids] of idsByType) {
    const schema = ctx.model.contentTypes[type]!;
    const statuses: readonly Status[] = schema.draftAndPublish ? ['draft', 'published'] : ['published'];
    for (const status of statuses) {
      const query: ListQuery = {
        filters: { kind: 'condition', attribute: 'id', operator: 'in', value: [...ids] },
        populate: {},
        status,
        ...(schema.localized ? { locale: '*' } : {}),
        sort: [],
        pagination: { kind: 'offset', start: 0, limit: ids.size, withCount: false },
      };
      reads.push(
        ctx.documents.findMany(type, query).then(({ results }) => {
          for (const entity of results) entries.set(`${type}#${String(entity['id'])}`, { __type: type, ...entity });
        }),
      );
    }
  }
  await Promise.all(reads);
  return entries;
}
