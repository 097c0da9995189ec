/**
 * `pagination: PaginationArg = {}` with Strapi 5's GraphQL rules (its `withDefaultPagination`),
 * for root lists and for the lists inside a document (relations, media, repeatable components),
 * which Strapi paginates per parent with the same rules:
 *
 * - nothing given: the first `defaultLimit` entries (graphql.config.defaultLimit);
 * - `start`/`limit`: `limit: -1` means `maxLimit` (everything when there is none); a negative
 *   start is 0, a limit below 1 (other than -1) is 1;
 * - `page`/`pageSize`: page N of pageSize entries; a page below 1 is page 1, a size below 1 is 1;
 *   a page without a size uses `defaultLimit` (Strapi 5.54 uses 1 there, which no client means);
 * - any size above `maxLimit` is capped silently (a page size before its offset is computed,
 *   unlike Strapi, so that pages follow each other); mixing both styles is a PaginationError;
 * - `amountLimit` caps sizes the same way (the smaller of the two caps applies). Strapi 5's
 *   plugin does not read it (only `defaultLimit` and `maxLimit`, through `withDefaultPagination`,
 *   which lowers a size silently rather than refusing it); Strapi 3, where it comes from, lowered
 *   `_limit` to it likewise. capi honours it because Strapi documents it as the most entries a
 *   response returns;
 * - `pageInfo` reports `page = floor(start / limit) + 1` and `pageSize = limit`, as Strapi does.
 */
import type { GraphqlConfig } from '../config.ts';
import { PaginationError } from '../errors.ts';
import type { Pagination } from '../query/types.ts';
import { isInputObject } from './args.ts';

/** Which entries of a list to return; `limit` -1 means all from `start` on. */
export interface Window {
  readonly start: number;
  readonly limit: number;
}

export type PaginationLimits = Pick<GraphqlConfig, 'defaultLimit' | 'maxLimit'> & { readonly amountLimit?: number | null };

/** The largest page size any list may have: the smaller of maxLimit and amountLimit; null: none. */
export function pageSizeCap(limits: PaginationLimits): number | null {
  const caps = [limits.maxLimit, limits.amountLimit ?? null].filter((cap): cap is number => cap !== null);
  return caps.length === 0 ? null : Math.min(...caps);
}

const MIXED = 'Cannot use both page & offset pagination in the same query';

export function paginationWindow(input: unknown, limits: PaginationLimits): Window {
  const args = isInputObject(input) ? input : {};
  const page = integerArg(args.page);
  const pageSize = integerArg(args.pageSize);
  const start = integerArg(args.start);
  const limit = integerArg(args.limit);
  const paged = page !== undefined || pageSize !== undefined;
  const offset = start !== undefined || limit !== undefined;
  if (paged && offset) throw new PaginationError(MIXED);
  if (paged) {
    // Capped before the offset is computed, so that page N starts where page N-1 ended (Strapi
    // multiplies by the uncapped size, as capi's REST pagination says too).
    const size = bounded({ start: 0, limit: Math.max(1, pageSize ?? limits.defaultLimit) }, limits).limit;
    return { start: (Math.max(page ?? 1, 1) - 1) * size, limit: size };
  }
  return bounded({ start: start ?? 0, limit: limit ?? limits.defaultLimit }, limits);
}

function bounded(window: Window, limits: PaginationLimits): Window {
  const max = pageSizeCap(limits) ?? -1;
  const limit = window.limit === -1 ? max : Math.max(window.limit, 1);
  return { start: Math.max(window.start, 0), limit: max !== -1 && (limit === -1 || limit > max) ? max : limit };
}

function integerArg(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

/** The engine's pagination of a root list. */
export function rootPagination(window: Window, withCount: boolean): Pagination {
  return { kind: 'offset', start: window.start, limit: window.limit, withCount };
}

/** The entries of a list inside a document that a window selects. */
export function windowOf<T>(list: readonly T[], window: Window): T[] {
  return window.limit === -1 ? list.slice(window.start) : list.slice(window.start, window.start + window.limit);
}

export interface PageInfo {
  readonly page: number;
  readonly pageSize: number;
  readonly pageCount: number;
  readonly total: number;
}

/** Strapi's `resolvePagination`: the page a start/limit window is, over `total` entries. */
export function pageInfo(window: Window, total: number): PageInfo {
  if (window.limit === -1) return { page: 1, pageSize: Math.max(total - window.start, 0), pageCount: 1, total };
  const size = Math.max(window.limit, 1);
  return { page: Math.floor(window.start / size) + 1, pageSize: size, pageCount: Math.ceil(total / size), total };
}
