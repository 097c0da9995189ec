/**
 * The two line formats of a Strapi 5 data-transfer archive, checked:
 *
 * - `entities/*.jsonl`: `{ type, id, data }`, one line per row version; `data` has the row's
 *   scalars, `documentId`, `locale`, timestamps, and its components and dynamic-zone entries
 *   inline (with their row ids); relations and media are links.
 * - `links/*.jsonl`: `{ kind, relation, left: { type, ref, field, pos }, right: { type, ref,
 *   field, pos } }`, one line per join row: `ref` is a row id (a documentId for Strapi's
 *   `localizations` links), `pos` the 1-based position in that side's list.
 */
import { ArchiveError } from './archive-reader.ts';

export interface EntityLine {
  readonly type: string;
  readonly id: number;
  readonly data: Readonly<Record<string, unknown>>;
}

export interface LinkSide {
  readonly type: string;
  readonly ref: number | string;
  readonly field?: string;
  readonly pos?: number;
}

export interface LinkLine {
  readonly kind: string;
  readonly relation: string;
  readonly left: LinkSide;
  readonly right: LinkSide;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isRowId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 2_147_483_647;
}

export function parseEntityLine(value: unknown, where: string): EntityLine {
  if (!isRecord(value) || typeof value['type'] !== 'string' || !isRowId(value['id']) || !isRecord(value['data'])) {
    throw new ArchiveError(`${where}: not an entity line ({ type, id, data } with a row id from 1 to 2147483647)`);
  }
  return { type: value['type'], id: value['id'], data: value['data'] };
}

function parseSide(value: unknown): LinkSide | undefined {
  if (!isRecord(value) || typeof value['type'] !== 'string') return undefined;
  const ref = value['ref'];
  if (!isRowId(ref) && typeof ref !== 'string') return undefined;
  const field = value['field'];
  const pos = value['pos'];
  if (field !== undefined && typeof field !== 'string') return undefined;
  if (pos !== undefined && pos !== null && !(typeof pos === 'number' && Number.isFinite(pos))) return undefined;
  return { type: value['type'], ref, ...(field === undefined ? {} : { field }), ...(typeof pos === 'number' ? { pos } : {}) };
}

export function parseLinkLine(value: unknown, where: string): LinkLine {
  const left = isRecord(value) ? parseSide(value['left']) : undefined;
  const right = isRecord(value) ? parseSide(value['right']) : undefined;
  if (!isRecord(value) || left === undefined || right === undefined) {
    throw new ArchiveError(`${where}: not a link line ({ kind, relation, left: { type, ref, field, pos }, right: { ... } })`);
  }
  return { kind: String(value['kind'] ?? ''), relation: String(value['relation'] ?? ''), left, right };
}
