/**
 * The problems found in one body, turned into Strapi's ValidationError: every failing path at
 * once in `details.errors`, ordered the way yup orders them (by the attribute order of the
 * schema, problems of the whole body first), and a message that is the only problem's message
 * or "N errors occurred".
 */
import { ValidationError } from '../errors.ts';
import type { JsonValue } from '../schema.ts';
import { issuePath, type Path } from './body-messages.ts';

export interface Issue {
  readonly path: Path;
  readonly message: string;
  /** The offending value (yup's final value); omitted when undefined. */
  readonly value?: unknown;
}

export class Issues {
  readonly #list: Issue[] = [];

  add(path: Path, message: string, value?: unknown): void {
    this.#list.push(value === undefined ? { path, message } : { path, message, value });
  }

  addAll(other: Issues): void {
    this.#list.push(...other.#list);
  }

  get size(): number {
    return this.#list.length;
  }

  /** Throws the ValidationError for the collected problems, if any. */
  throwIfAny(attributeOrder: readonly string[]): void {
    if (this.#list.length > 0) throw this.toError(attributeOrder);
  }

  toError(attributeOrder: readonly string[]): ValidationError {
    const rank = (issue: Issue): number => {
      const head = issue.path[0];
      if (head === undefined) return -1;
      const index = attributeOrder.indexOf(String(head));
      return index === -1 ? attributeOrder.length : index;
    };
    const sorted = this.#list.map((issue, index) => ({ issue, index })).sort((a, b) => rank(a.issue) - rank(b.issue) || a.index - b.index);
    const issues = sorted.map(({ issue }) => ({
      path: issuePath(issue.path),
      message: issue.message,
      name: 'ValidationError',
      ...(issue.value === undefined ? {} : { value: toJson(issue.value) }),
    }));
    const message = issues.length === 1 ? issues[0]!.message : `${issues.length} errors occurred`;
    return ValidationError.of(message, issues);
  }
}

/** Body values are JSON already; NaN (a failed number cast) is sent as JSON sends it, null. */
function toJson(value: unknown): JsonValue {
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  if (typeof value === 'bigint') return value.toString();
  // A timestamp value (body-scalars.ts) is reported as the API writes it.
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  return value as JsonValue;
}
