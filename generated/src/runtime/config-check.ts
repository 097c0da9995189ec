/**
 * Small typed readers for the JSON config files. Each one either returns a value of the right
 * type or throws a ConfigError whose message is one line naming the file and the key, e.g.
 * `config/api.json: rest.maxLimit must be an integer >= 1 (got "a lot")`.
 * Hand-written rather than ajv so that messages say exactly what is wanted, and so that the
 * result is typed without a schema/type pair to keep in sync.
 */

/** A problem in the configuration (files or environment). The message is one line. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Where a value came from: a file (`config/api.json`) or an environment variable, and a key path. */
export interface Where {
  /** `config/api.json`, or `""` for environment variables (the path is the variable's name). */
  readonly file: string;
  /** Dotted key path inside the file (`rest.maxLimit`, `locales[2]`); `""` is the whole file. */
  readonly path: string;
}

export type JsonObject = { readonly [key: string]: unknown };

export function at(where: Where, key: string | number): Where {
  const path = typeof key === 'number' ? `${where.path}[${key}]` : where.path === '' ? key : `${where.path}.${key}`;
  return { file: where.file, path };
}

export function fail(where: Where, message: string): never {
  const prefix = where.file === '' ? '' : `${where.file}: `;
  const subject = where.path === '' ? '' : `${where.path} `;
  throw new ConfigError(`${prefix}${subject}${message}`.replace(/\s*\n\s*/g, ' '));
}

/** `(got "a lot")`: a short JSON rendering of the offending value. */
export function got(value: unknown): string {
  const text = value === undefined ? 'nothing' : (JSON.stringify(value) ?? String(value));
  return `(got ${text.length > 60 ? `${text.slice(0, 57)}...` : text})`;
}

/**
 * Checks that `value` is an object whose keys are all in `known`, and returns it. An unknown key
 * is reported with the closest known one, since it is usually a typo.
 */
export function object(where: Where, value: unknown, known: readonly string[]): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(where, `must be a JSON object ${got(value)}`);
  }
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    const full = at(where, key).path;
    const guess = closest(key, known);
    const hint = guess === undefined ? '' : ` (did you mean "${at(where, guess).path}"?)`;
    fail({ file: where.file, path: '' }, `unknown key "${full}"${hint}`);
  }
  return value as JsonObject;
}

export interface IntegerRange {
  readonly min?: number;
  readonly max?: number;
}

export function integer(where: Where, value: unknown, range: IntegerRange = {}): number {
  const ok = typeof value === 'number' && Number.isSafeInteger(value) && (range.min === undefined || value >= range.min) && (range.max === undefined || value <= range.max);
  if (!ok) fail(where, `must be ${describeRange(range)} ${got(value)}`);
  return value as number;
}

function describeRange(range: IntegerRange): string {
  if (range.min !== undefined && range.max !== undefined) return `an integer between ${range.min} and ${range.max}`;
  if (range.min !== undefined) return `an integer >= ${range.min}`;
  if (range.max !== undefined) return `an integer <= ${range.max}`;
  return 'an integer';
}

export function boolean(where: Where, value: unknown): boolean {
  if (typeof value !== 'boolean') fail(where, `must be true or false ${got(value)}`);
  return value;
}

export function string(where: Where, value: unknown, pattern?: { readonly regex: RegExp; readonly description: string }): string {
  if (typeof value !== 'string' || value.length === 0) fail(where, `must be a non-empty string ${got(value)}`);
  if (pattern !== undefined && !pattern.regex.test(value)) fail(where, `must be ${pattern.description} ${got(value)}`);
  return value;
}

const secondsPerUnit: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800, y: 31_557_600 };

/**
 * A length of time in whole seconds: a number of seconds, or a string as Strapi's `expiresIn`
 * takes it (`"30d"`, `"12h"`, `"90m"`, `"2 weeks"`). A string of bare digits is refused: Strapi
 * would read it as milliseconds, which is never what a token lifetime means.
 */
export function duration(where: Where, value: unknown): number {
  if (typeof value === 'number') return integer(where, value, { min: 1 });
  const match = typeof value === 'string' ? /^(\d+)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hrs?|hours?|d|days?|w|weeks?|y|yrs?|years?)$/i.exec(value.trim()) : null;
  const seconds = match === null ? undefined : Number(match[1]) * (secondsPerUnit[(match[2] ?? '').charAt(0).toLowerCase()] ?? Number.NaN);
  if (seconds === undefined || !Number.isSafeInteger(seconds) || seconds < 1) {
    fail(where, `must be a number of seconds or a duration like "30d", "12h" or "90m" ${got(value)}`);
  }
  return seconds;
}

export function array(where: Where, value: unknown): readonly unknown[] {
  if (!Array.isArray(value)) fail(where, `must be an array ${got(value)}`);
  return value;
}

export function oneOf<const T extends string>(where: Where, value: unknown, choices: readonly T[]): T {
  if (typeof value !== 'string' || !(choices as readonly string[]).includes(value)) {
    fail(where, `must be one of ${choices.map((c) => `"${c}"`).join(', ')} ${got(value)}`);
  }
  return value as T;
}

/** The known word nearest to `word`, if it is close enough to be a plausible typo. */
export function closest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const d = distance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

/** Levenshtein distance with adjacent transpositions (`prot` is one edit from `port`). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i]!;
      const prev = d[i - 1]!;
      let value = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, d[i - 2]![j - 2]! + 1);
      row[j] = value;
    }
  }
  return d[a.length]![b.length]!;
}
