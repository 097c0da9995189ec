/**
 * Document identifiers in Strapi 5's shape: 24 characters, lowercase letters and digits, starting
 * with a letter (cuid2). Clients and the conformance suite rely on that shape, so it is not
 * ours to change.
 */
import { init } from '@paralleldrive/cuid2';

export const DOCUMENT_ID_PATTERN = /^[a-z][a-z0-9]{23}$/;

export const createDocumentId: () => string = init({ length: 24 });

export function isDocumentId(value: unknown): value is string {
  return typeof value === 'string' && DOCUMENT_ID_PATTERN.test(value);
}
