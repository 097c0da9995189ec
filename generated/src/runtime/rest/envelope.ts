/** Strapi 5's REST response envelopes. */
import type { Entity } from '../engine/types.ts';
import type { Pagination } from '../query/types.ts';

export type PaginationMeta =
  | { readonly page: number; readonly pageSize: number; readonly pageCount: number; readonly total: number }
  | { readonly page: number; readonly pageSize: number }
  | { readonly start: number; readonly limit: number; readonly total: number }
  | { readonly start: number; readonly limit: number };

/** `meta.pagination` in the form the request used; counts only when they were computed. */
export function paginationMeta(pagination: Pagination, total: number | undefined): PaginationMeta {
  if (pagination.kind === 'offset') {
    const { start, limit } = pagination;
    return total === undefined ? { start, limit } : { start, limit, total };
  }
  const { page, pageSize } = pagination;
  if (total === undefined) return { page, pageSize };
  return { page, pageSize, pageCount: Math.ceil(total / pageSize), total };
}

export function listEnvelope(data: Entity[], pagination: PaginationMeta): { data: Entity[]; meta: { pagination: PaginationMeta } } {
  return { data, meta: { pagination } };
}

export function documentEnvelope(data: Entity): { data: Entity; meta: Record<string, never> } {
  return { data, meta: {} };
}
