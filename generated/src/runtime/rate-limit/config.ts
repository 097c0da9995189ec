/**
 * config/rate-limit.json: request limits per route group, counted per client address in fixed
 * windows. Sign-in keeps Strapi's own setting (`users-permissions.config.ratelimit` in
 * config/plugins.json); this file covers the other groups:
 *
 *   { "upload":  { "enabled": true,  "max": 300, "interval": "15m" }, POST /api/upload, /upload
 *     "rest":    { "enabled": false, "max": 600, "interval": "1m" },   every other /api route
 *     "graphql": { "enabled": false, "max": 300, "interval": "1m" } }  /graphql
 *
 * `interval` is milliseconds, or a duration like "1m", "15m", "1h". A missing file or group
 * means these defaults: uploads are limited (each one costs disk and image processing), reads
 * are not, as in Strapi.
 */
import { at, boolean, duration, integer, object, type Where } from '../config-check.ts';

export const rateLimitGroups = ['upload', 'rest', 'graphql'] as const;
export type RateLimitGroup = (typeof rateLimitGroups)[number];

export interface RateLimitRule {
  readonly enabled: boolean;
  /** Requests allowed per window and address; the next one gets a 429. */
  readonly max: number;
  readonly intervalMs: number;
}

export type RateLimitsConfig = Readonly<Record<RateLimitGroup, RateLimitRule>>;

export const defaultRateLimits: RateLimitsConfig = {
  upload: { enabled: true, max: 300, intervalMs: 900_000 },
  rest: { enabled: false, max: 600, intervalMs: 60_000 },
  graphql: { enabled: false, max: 300, intervalMs: 60_000 },
};

/** The file as `capi generate` writes it: the defaults, in the file's own units. */
export function defaultRateLimitFile(): Record<RateLimitGroup, { enabled: boolean; max: number; interval: string }> {
  return {
    upload: { enabled: true, max: 300, interval: '15m' },
    rest: { enabled: false, max: 600, interval: '1m' },
    graphql: { enabled: false, max: 300, interval: '1m' },
  };
}

export function rateLimitsConfig(where: Where, json: unknown): RateLimitsConfig {
  if (json === undefined) return defaultRateLimits;
  const file = object(where, json, rateLimitGroups);
  const rule = (group: RateLimitGroup): RateLimitRule => {
    const fallback = defaultRateLimits[group];
    if (file[group] === undefined) return fallback;
    return rateLimitRule(at(where, group), file[group], fallback);
  };
  return { upload: rule('upload'), rest: rule('rest'), graphql: rule('graphql') };
}

/** `{ enabled, max, interval }`, as users-permissions' `ratelimit` takes it; `interval` in ms or a duration. */
export function rateLimitRule(where: Where, json: unknown, fallback: RateLimitRule): RateLimitRule {
  const o = object(where, json, ['enabled', 'max', 'interval']);
  return {
    enabled: o.enabled === undefined ? fallback.enabled : boolean(at(where, 'enabled'), o.enabled),
    max: o.max === undefined ? fallback.max : integer(at(where, 'max'), o.max, { min: 1 }),
    intervalMs:
      o.interval === undefined ? fallback.intervalMs : typeof o.interval === 'number' ? integer(at(where, 'interval'), o.interval, { min: 1 }) : duration(at(where, 'interval'), o.interval) * 1000,
  };
}
