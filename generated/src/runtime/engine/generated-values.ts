/** How each generated value (contract/generated-values.ts) is made: one entry per name. */
import { randomUUID } from 'node:crypto';
import type { GeneratedValue } from '../../contract/generated-values.ts';
import type { JsonValue, ScalarField } from '../schema.ts';

const GENERATORS: Readonly<Record<GeneratedValue, () => JsonValue>> = {
  // A version 4 UUID, as strapi-advanced-uuid fills when no format is set.
  uuid: () => randomUUID(),
};

/**
 * The value a created entry gets for `field`: a generated one when the body gives nothing (as the
 * plugins do, an empty string or null counts as nothing), else the default when the body leaves
 * the field out, else what the body gives.
 */
export function valueOnCreate(field: ScalarField, raw: unknown): unknown {
  if (field.generated !== undefined && (raw === undefined || raw === null || raw === '')) return GENERATORS[field.generated]();
  return raw === undefined && field.default !== undefined ? field.default : raw;
}
