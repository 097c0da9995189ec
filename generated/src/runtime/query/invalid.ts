/**
 * The 400s of query validation, worded and detailed the way Strapi 5 words them, so that a client
 * written against Strapi reads the same `message` and `details`.
 */
import { ValidationError, type ErrorDetails } from '../errors.ts';
import { quote } from './raw.ts';

/** The query parameter an error is about, as Strapi names it in `details.param`. */
export type QueryParam = 'filters' | 'sort' | 'fields' | 'populate';

/**
 * Where a key sits, in Strapi's two spellings: `raw` joins every key met on the way (`author.
 * populate.avatar`), `attribute` only the attributes (`author.avatar`). Null at the root.
 */
export interface KeyPath {
  readonly raw: string | null;
  readonly attribute: string | null;
}

export const ROOT_PATH: KeyPath = { raw: null, attribute: null };

/** The path one key further down; `isAttribute` says whether the key names an attribute. */
export function stepInto(path: KeyPath, key: string, isAttribute: boolean): KeyPath {
  return {
    raw: join(path.raw, key),
    attribute: isAttribute ? join(path.attribute, key) : path.attribute,
  };
}

export function join(prefix: string | null, key: string): string {
  return prefix === null ? key : `${prefix}.${key}`;
}

/**
 * Strapi's `Invalid key <key>[ at <path>]`. Strapi adds `source`/`param` for keys its top-level
 * validators reject; `param` undefined leaves them out, as Strapi does for keys found directly
 * inside a populated attribute (`populate[author]=*` → `Invalid key avatar at author.avatar`).
 * `path` undefined leaves `details.path` out (Strapi's restricted-relation check passes none).
 */
export function invalidKey(key: string, path: string | null | undefined, param: QueryParam | undefined): ValidationError {
  const message = path !== null && path !== undefined && path !== '' && path !== key ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`;
  const details: { [name: string]: string | null } = { key };
  if (path !== undefined) details.path = path;
  if (param !== undefined) {
    details.source = 'query';
    details.param = param;
  }
  return new ValidationError(message, details);
}

/** A query parameter whose value has the wrong shape (not a key problem). */
export function invalidParam(message: string, param: string, extra: ErrorDetails = {}): ValidationError {
  return new ValidationError(message, { ...extra, source: 'query', param });
}

/**
 * A filter value that does not fit its attribute's type. Strapi answers these with a 500 from
 * the database; capi says what is wrong instead.
 */
export function invalidFilterValue(value: unknown, label: string, expected: string, param: QueryParam): ValidationError {
  return new ValidationError(`Invalid value ${quote(value)} for filter ${label}: expected ${expected}`, {
    path: label,
    source: 'query',
    param,
  });
}
