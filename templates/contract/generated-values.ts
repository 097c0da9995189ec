/**
 * Values the server generates for an attribute on create when the body gives none (or null, or
 * ""): the behaviour of custom fields such as strapi-advanced-uuid's, which a Strapi plugin adds
 * in a lifecycle hook. The generator writes the name into the attribute's static table
 * (`generated`); the runtime's table of generators (engine/generated-values.ts) is keyed by it.
 */
export const GENERATED_VALUES = ['uuid'] as const;

export type GeneratedValue = (typeof GENERATED_VALUES)[number];
