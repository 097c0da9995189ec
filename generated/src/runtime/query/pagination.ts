/**
 * `pagination[page]`/`[pageSize]` or `pagination[start]`/`[limit]`, and `[withCount]`, with
 * Strapi 5's REST defaults and clamps: no pagination is page 1 of `defaultLimit`; page and page
 * size below 1 become 1; a negative start becomes 0; sizes above `maxLimit` are capped silently.
 * Bad values get Strapi's own messages (`convertStartQueryParams expected a positive integer got
 * NaN` for `pagination[page]=abc`), mixing both styles is a PaginationError.
 *
 * Where capi differs from Strapi, on purpose:
 * - `limit=-1` ("no limit") is `maxLimit` entries. Strapi 5.54 answers one entry in REST (a defect
 *   its own GraphQL side does not share: there -1 means maxLimit).
 * - A limit that is no number (`limit=abc`) is a 400 like the other fields; Strapi silently reads
 *   it as maxLimit.
 * - A page size above `maxLimit` is capped before the page's offset is computed, so that page N
 *   starts where page N-1 ended; Strapi computes the offset with the uncapped size.
 */
import type { RestConfig } from '../config.ts';
import { PaginationError, ValidationError } from '../errors.ts';
import { booleanLike, isRecord, own, toNumber } from './raw.ts';
import type { Pagination } from './types.ts';

const MIXED = 'Cannot use both page & offset pagination in the same query';
const AT_ROOT = 'Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object';
const WITH_COUNT = 'Invalid withCount parameter. Expected "t","1","true","false","0","f"';

/** The root query's `pagination`, `page` and `pageSize` (the last two are only ever an error). */
export interface RawPagination {
  readonly pagination: unknown;
  readonly rootPage: unknown;
  readonly rootPageSize: unknown;
}

export function parsePagination(raw: RawPagination, rest: RestConfig): Pagination {
  const params = raw.pagination === undefined ? {} : raw.pagination;
  if (!isRecord(params)) throw new ValidationError('Invalid pagination parameter. Expected an object', { source: 'query', param: 'pagination' });
  const page = own(params, 'page');
  const pageSize = own(params, 'pageSize');
  const start = own(params, 'start');
  const limit = own(params, 'limit');
  const paged = page !== undefined || pageSize !== undefined;
  const offset = start !== undefined || limit !== undefined;
  if (paged && offset) throw new PaginationError(MIXED);
  if (raw.rootPage !== undefined || raw.rootPageSize !== undefined) throw new PaginationError(AT_ROOT);
  const withCount = parseWithCount(own(params, 'withCount'), rest);
  if (offset) return { kind: 'offset', start: parseStart(start), limit: parseLimit(limit, rest), withCount };
  return { kind: 'page', ...parsePage(page, pageSize, rest), withCount };
}

function parsePage(rawPage: unknown, rawPageSize: unknown, rest: RestConfig): { page: number; pageSize: number } {
  const page = rawPage === undefined ? 1 : toNumber(rawPage);
  const size = rawPageSize === undefined ? rest.defaultLimit : toNumber(rawPageSize);
  // Strapi turns page and size into an offset first: any NaN makes that offset NaN.
  if (Number.isNaN(page) || Number.isNaN(size)) throw startError(Number.NaN);
  if (!Number.isSafeInteger(page)) throw startError(page);
  const pageSize = Math.min(Math.max(size, 1), rest.maxLimit);
  if (!Number.isSafeInteger(pageSize)) throw limitError(pageSize);
  const clampedPage = Math.max(page, 1);
  const offset = (clampedPage - 1) * pageSize;
  if (!Number.isSafeInteger(offset)) throw startError(offset);
  return { page: clampedPage, pageSize };
}

function parseStart(raw: unknown): number {
  if (raw === undefined) return 0;
  const start = Math.max(toNumber(raw), 0);
  if (!Number.isSafeInteger(start)) throw startError(start);
  return start;
}

function parseLimit(raw: unknown, rest: RestConfig): number {
  if (raw === undefined) return rest.defaultLimit;
  const value = toNumber(raw);
  if (value === -1) return rest.maxLimit;
  if (Number.isNaN(value)) throw limitError(value);
  const limit = Math.min(Math.max(value, 1), rest.maxLimit);
  if (!Number.isSafeInteger(limit)) throw limitError(limit);
  return limit;
}

function parseWithCount(raw: unknown, rest: RestConfig): boolean {
  if (raw === undefined) return rest.withCount;
  const flag = booleanLike(raw);
  if (flag === undefined) throw new ValidationError(WITH_COUNT);
  return flag;
}

function startError(value: number): ValidationError {
  return new ValidationError(`convertStartQueryParams expected a positive integer got ${value}`);
}

function limitError(value: number): ValidationError {
  return new ValidationError(`convertLimitQueryParams expected a positive integer got ${value}`);
}
