/**
 * Strapi 5 validates request bodies with yup 0.32 and answers with yup's messages, so clients
 * (and the admin UIs built on Strapi) show exactly these strings. This module spells them out:
 * the value printer yup uses in messages, the yup path of a nested value (`variants[0].sku`), and
 * one function per message.
 */

/** Where a value sits in the body: attribute names and array indexes. */
export type Path = readonly (string | number)[];

/** yup's path syntax: keys joined with dots, indexes in brackets (`blocks[1].body`). */
export function yupPath(path: Path): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}

/** The path as Strapi reports it in `details.errors[].path` (lodash toPath: every segment a string). */
export function issuePath(path: Path): string[] {
  return path.map(String);
}

/**
 * yup's printValue: how a value appears inside a message. Strings are quoted when `quoteStrings`,
 * objects and arrays are JSON with two-space indentation (their strings quoted the same way).
 */
export function printValue(value: unknown, quoteStrings = false): string {
  const simple = printSimple(value, quoteStrings);
  if (simple !== null) return simple;
  return JSON.stringify(
    value,
    function replacer(this: Record<string, unknown>, key: string, inner: unknown) {
      const printed = printSimple(this[key], quoteStrings);
      return printed !== null ? printed : inner;
    },
    2,
  );
}

function printSimple(value: unknown, quoteStrings: boolean): string | null {
  if (value === null || value === undefined || value === true || value === false) return String(value);
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    return Object.is(value, -0) ? '-0' : String(value);
  }
  if (typeof value === 'string') return quoteStrings ? `"${value}"` : value;
  if (typeof value === 'bigint') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString();
  return null;
}

/**
 * yup's type error, as Strapi configures it (without yup's hint about `.nullable()`):
 * ``title must be a `string` type, but the final value was: `null`.``
 */
export function notType(path: Path, type: string, value: unknown, originalValue: unknown = value): string {
  const cast = originalValue !== null && originalValue !== undefined && !Object.is(originalValue, value);
  return `${yupPath(path)} must be a \`${type}\` type, but the final value was: \`${printValue(value, true)}\`` + (cast ? ` (cast from the value \`${printValue(originalValue, true)}\`).` : '.');
}

export const messages = {
  /** Strapi's notNil(): a required value missing on creation. */
  defined: (path: Path) => `${yupPath(path)} must be defined.`,
  /** Strapi's notNull(): a required value set to null on update. */
  notNull: (path: Path) => `${yupPath(path)} cannot be null.`,
  required: (path: Path) => `${yupPath(path)} is a required field`,
  minLength: (path: Path, min: number) => `${yupPath(path)} must be at least ${min} characters`,
  maxLength: (path: Path, max: number) => `${yupPath(path)} must be at most ${max} characters`,
  matches: (path: Path, regex: RegExp) => `${yupPath(path)} must match the following: "${String(regex)}"`,
  email: (path: Path) => `${yupPath(path)} must be a valid email`,
  emptyEmail: (path: Path) => `${yupPath(path)} cannot be empty`,
  integer: (path: Path) => `${yupPath(path)} must be an integer`,
  min: (path: Path, min: number) => `${yupPath(path)} must be greater than or equal to ${min}`,
  max: (path: Path, max: number) => `${yupPath(path)} must be less than or equal to ${max}`,
  /** Not Strapi's (its database fails instead): a value its column cannot hold (column-domains.ts). */
  domain: (path: Path, expected: string) => `${yupPath(path)} must be ${expected}`,
  /**
   * yup's oneOf lists its whitelist joined with ", ". Strapi adds `null` to an enumeration's
   * whitelist, which prints as an empty last item: "... x_large, ".
   */
  oneOf: (path: Path, values: readonly (string | null)[]) => `${yupPath(path)} must be one of the following values: ${values.map((v) => (v === null ? '' : v)).join(', ')}`,
  arrayMin: (path: Path, min: number) => `${yupPath(path)} field must have at least ${min} items`,
  arrayMax: (path: Path, max: number) => `${yupPath(path)} field must have less than or equal to ${max} items`,
  unique: () => 'This attribute must be unique',
  /** Not Strapi's (its API does not check allowedTypes; only its admin UI does). */
  fileType: (path: Path, allowed: readonly string[], mime: string) => `${yupPath(path)} must be a file of the following types: ${allowed.join(', ')} (got ${mime})`,
  /** Not Strapi's (it links every given file): a single media field takes one file. */
  singleFile: (path: Path, count: number) => `${yupPath(path)} must be a single file, got ${count}`,
  /** Not Strapi's (it silently drops relation values it cannot read). */
  relationShape: (path: Path) => `${yupPath(path)} must be a documentId, an array of documentIds, or an object with connect, disconnect or set`,
  /** Strapi's count of relation targets given by row id that do not exist (files count as plugin::upload.file). */
  missingRelations: (count: number, uid: string) => `${count} relation(s) of type ${uid} associated with this entity do not exist`,
  /** Strapi's answer to a component id the entry does not hold. */
  foreignComponent: (attribute: string) => `Some of the provided components in ${attribute} are not related to the entity`,
  documentNotFound: (documentId: string, locale: string | null) => `Document with id "${documentId}", locale "${locale ?? 'null'}" not found`,
  invalidKey: (key: string, attributePath: string | null) => (attributePath !== null && attributePath !== key ? `Invalid key ${key} at ${attributePath}` : `Invalid key ${key}`),
} as const;
