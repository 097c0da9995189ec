/**
 * Strapi's content API refuses a body key that is not a writable attribute before anything else
 * is validated, one key at a time: `Invalid key nope` (`Invalid key nope at seo` inside a
 * component), `details: { key, path, source: 'body' }` where path is the attribute path of the
 * object holding the key (null at the root). System fields (`id`, `documentId`, `createdAt`,
 * ...) are not writable; `publishedAt` is accepted and ignored, and so is `locale` on localized
 * types (the query's locale decides), as in Strapi.
 */
import { ValidationError } from '../errors.ts';
import type { Field, ModelSchema } from '../schema.ts';
import { messages } from './body-messages.ts';

type Attributes = Readonly<Record<string, Field>>;
type Body = Record<string, unknown>;

const COMPONENT_EXTRAS: ReadonlySet<string> = new Set(['id', '__component']);

export function isBody(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Throws for a body that is not an object (the caller's own check covers a missing one). */
export function assertBody(data: unknown): asserts data is Body {
  if (!isBody(data)) throw new ValidationError('Missing "data" payload in the request body');
}

/** Throws the first key, depth first in body order, that the schema does not accept. */
export function assertKnownKeys(model: ModelSchema, attributes: Attributes, data: Body, localized: boolean): void {
  const extras = new Set(['publishedAt', ...(localized ? ['locale'] : [])]);
  scan(model, attributes, data, null, extras);
}

function scan(model: ModelSchema, attributes: Attributes, data: Body, attributePath: string | null, extras: ReadonlySet<string>): void {
  for (const [key, value] of Object.entries(data)) {
    const field = Object.hasOwn(attributes, key) ? attributes[key] : undefined;
    if (field === undefined) {
      if (extras.has(key)) continue;
      throw new ValidationError(messages.invalidKey(key, attributePath), { key, path: attributePath, source: 'body' });
    }
    const path = attributePath === null ? key : `${attributePath}.${key}`;
    if (field.kind === 'component') {
      const component = model.components[field.component];
      if (component === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) {
        if (isBody(item)) scan(model, component.attributes, item, path, COMPONENT_EXTRAS);
      }
    } else if (field.kind === 'dynamiczone' && Array.isArray(value)) {
      for (const item of value) {
        if (!isBody(item) || typeof item.__component !== 'string') continue;
        const component = field.components.includes(item.__component) ? model.components[item.__component] : undefined;
        if (component !== undefined) scan(model, component.attributes, item, path, COMPONENT_EXTRAS);
      }
    }
  }
}
