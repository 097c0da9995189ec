/**
 * A user's `role` as a request may give it: every form Strapi takes for a to-one relation.
 *   7, "7"                         the role's id
 *   "kx9...", { documentId }       its documentId
 *   { id }                         its id
 *   [ref], { connect: [ref] }, { set: [ref] }   the last one given (a to-one keeps one)
 *   { set: [] }, { disconnect: [...] }          no role
 */
export type RoleRef = { readonly id: number } | { readonly documentId: string };

/** The role named, null when the value clears the role, undefined when it is not a role reference. */
export function roleReference(value: unknown): RoleRef | null | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? { id: value } : undefined;
  if (typeof value === 'string') return /^\d+$/.test(value) ? roleReference(Number(value)) : value === '' ? undefined : { documentId: value };
  if (Array.isArray(value)) return value.length === 0 ? null : roleReference(value[value.length - 1]);
  if (typeof value !== 'object' || value === null) return undefined;
  const object = value as Record<string, unknown>;
  if ('documentId' in object) return typeof object['documentId'] === 'string' && object['documentId'] !== '' ? { documentId: object['documentId'] } : undefined;
  if ('id' in object) return roleReference(object['id']);
  if ('set' in object) return Array.isArray(object['set']) ? roleReference(object['set']) : undefined;
  if ('connect' in object && Array.isArray(object['connect']) && object['connect'].length > 0) return roleReference(object['connect']);
  if ('disconnect' in object && Array.isArray(object['disconnect'])) return null;
  return undefined;
}
