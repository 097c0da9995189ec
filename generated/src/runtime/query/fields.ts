/**
 * `fields`: which scalar attributes to return. A string, a comma list or an array of either; `*`
 * means all of them. `id` and `documentId` are accepted and dropped, since every entry carries
 * them anyway: `fields=id` is an empty list (nothing but the ids), not "all fields".
 */
import { invalidKey, invalidParam, type QueryParam } from './invalid.ts';
import { commaList, isStringArray } from './raw.ts';
import { keyInfo, type Target } from './targets.ts';

const ALWAYS_RETURNED: readonly string[] = ['id', 'documentId'];

/** The scalar attributes to return, or undefined for all of them. */
export function parseFields(raw: unknown, target: Target, param: QueryParam): readonly string[] | undefined {
  if (raw === undefined) return undefined;
  const names = fieldNames(raw, param);
  if (names.includes('*')) return undefined;
  const fields: string[] = [];
  for (const name of names) {
    if (ALWAYS_RETURNED.includes(name)) continue;
    checkField(target, name, param);
    if (!fields.includes(name)) fields.push(name);
  }
  return fields;
}

function fieldNames(raw: unknown, param: QueryParam): string[] {
  if (typeof raw === 'string') return commaList(raw);
  if (isStringArray(raw)) return raw.flatMap(commaList);
  throw invalidParam('Invalid fields parameter. Expected a string or an array of strings', param);
}

/** Strapi names the attribute's path for attributes it refuses, and no path for unknown keys. */
function checkField(target: Target, name: string, param: QueryParam): void {
  const info = keyInfo(target, name);
  if (info === undefined) throw invalidKey(name, null, param);
  if (info.kind !== 'scalar') throw invalidKey(name, name, param);
}
