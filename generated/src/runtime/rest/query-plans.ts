/**
 * The parsed and validated query of a type's core action, kept by its raw query string, so that a
 * query string seen before costs one Map lookup instead of `qs` and the validation against the
 * type's table (about a tenth of a small read's CPU, docs/benchmarks.md).
 *
 * What else a parse depends on is fixed per type at start-up (the schema, config/api.json's REST
 * limits, i18n's default locale) except the caller's permissions: populate, filters and sort on a
 * relation need its target's `find`. So a plan remembers which types it asked about and with
 * what answer, and serves a later caller only if that caller's answers are the same; otherwise
 * the query is parsed again for it (and replaces the plan). A query that fails validation is never
 * kept: it fails again, at the same cost as before.
 *
 * Plans are deeply frozen: the same object is handed to every request with that query string, so
 * nothing may change it. Bounded per cache (least recently used out first).
 */

/** What a parse is given: the permission check it must use, so that its answers are recorded. */
export type PlanParser<T> = (canRead: (uid: string) => boolean) => T;

interface Plan<T> {
  readonly value: T;
  /** The types the parse asked about, and the answers it got. */
  readonly reads: readonly (readonly [uid: string, allowed: boolean])[];
}

export const QUERY_PLAN_LIMIT = 500;

export class QueryPlans<T> {
  readonly #plans = new Map<string, Plan<T>>();

  constructor(private readonly limit: number = QUERY_PLAN_LIMIT) {}

  get size(): number {
    return this.#plans.size;
  }

  /** The plan of `raw` for a caller whose permissions `canRead` answers; parsed with `parse` when none fits. */
  plan(raw: string, canRead: (uid: string) => boolean, parse: PlanParser<T>): T {
    const cached = this.#plans.get(raw);
    if (cached !== undefined && cached.reads.every(([uid, allowed]) => canRead(uid) === allowed)) {
      // Most recently used last: Map keeps insertion order.
      this.#plans.delete(raw);
      this.#plans.set(raw, cached);
      return cached.value;
    }
    const reads: [string, boolean][] = [];
    const value = parse((uid) => {
      const allowed = canRead(uid);
      reads.push([uid, allowed]);
      return allowed;
    });
    this.#plans.delete(raw);
    if (this.#plans.size >= this.limit) {
      const oldest = this.#plans.keys().next().value;
      if (oldest !== undefined) this.#plans.delete(oldest);
    }
    this.#plans.set(raw, { value: deepFreeze(value), reads });
    return value;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  return value;
}
