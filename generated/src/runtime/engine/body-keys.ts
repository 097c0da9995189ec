/**
 * Strapi's content API refuses a body key that is not a writable attribute before anything else
 * is validated, one key at a time: `Invalid key nope` (`Invalid key nope at seo` inside a
 * component), `details: { key, path, source: 'body' }` where path is the attribute path of the
 * object holding the key, and no `path` at the root (Strapi's details leave it out there). System fields (`id`, `documentId`, `createdAt`,
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
  const rootExtras = new Set(['publishedAt', ...(localized ? ['locale'] : [])]);
  walk(model, attributes, data, null, (key, field, holder) => {
    if (field !== undefined || (holder === null ? rootExtras : COMPONENT_EXTRAS).has(key)) return;
    throw new ValidationError(messages.invalidKey(key, holder), holder === null ? { key, source: 'body' } : { key, path: holder, source: 'body' });
  });
}

/**
 * Strapi's content API refuses relation input (any value: ids, documentIds, connect, set,
 * disconnect, null) whose target the caller may not `find`, in components and dynamic zones
 * too, before looking at what it names: `Invalid key author` (`Invalid key article at
 * blocks.article` inside one), so the answer is the same whether the target exists or not.
 * Media are not relations here and are not checked, as in Strapi.
 */
export function assertReadableRelations(model: ModelSchema, attributes: Attributes, data: Body, canRead: (uid: string) => boolean): void {
  walk(model, attributes, data, null, (key, field, holder) => {
    if (field?.kind !== 'relation' || canRead(field.target)) return;
    const path = holder === null ? key : `${holder}.${key}`;
    throw new ValidationError(messages.invalidKey(key, path), { key, path, source: 'body' });
  });
}

/** Calls `visit` for every key of the body, depth first in body order, with its field (if any) and the attribute path of the object holding it. */
function walk(model: ModelSchema, attributes: Attributes, data: Body, holder: string | null, visit: (key: string, field: Field | undefined, holder: string | null) => void): void {
  for (const [key, value] of Object.entries(data)) {
    const field = Object.hasOwn(attributes, key) ? attributes[key] : undefined;
    visit(key, field, holder);
    if (field === undefined) continue;
    const path = holder === null ? key : `${holder}.${key}`;
    if (field.kind === 'component') {
      const component = model.components[field.component];
      if (component === undefined) continue;
      for (const item of Array.isArray(value) ? value : [value]) {
        if (isBody(item)) walk(model, component.attributes, item, path, visit);
      }
    } else if (field.kind === 'dynamiczone' && Array.isArray(value)) {
      for (const item of value) {
        if (!isBody(item) || typeof item.__component !== 'string') continue;
        const component = field.components.includes(item.__component) ? model.components[item.__component] : undefined;
        if (component !== undefined) walk(model, component.attributes, item, path, visit);
      }
    }
  }
}
