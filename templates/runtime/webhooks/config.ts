/**
 * config/webhooks.json: the endpoints told about content changes, as a list
 *   [{ "name": "search", "url": "https://indexer.example/hook", "headers": { "Authorization": "Bearer ..." },
 *      "events": ["entry.create", "entry.update", "entry.delete", "entry.publish"], "secretEnv": "SEARCH_WEBHOOK_SECRET" }]
 * `events` are Strapi's names; `secretEnv` names an environment variable whose value signs each
 * delivery (HMAC-SHA256 of the body, header `X-Capi-Signature: sha256=<hex>`). Names are unique:
 * the outbox records deliveries by name.
 */
import { array, at, fail, got, object, oneOf, string, type Where } from '../config-check.ts';
import type { Environment } from '../config.ts';

export const webhookEvents = ['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish', 'media.create', 'media.update', 'media.delete'] as const;
export type WebhookEvent = (typeof webhookEvents)[number];

export interface WebhookConfig {
  readonly name: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly events: readonly WebhookEvent[];
  /** The signing secret's value, read from `secretEnv` at start-up; null when deliveries are not signed. */
  readonly secret: string | null;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function webhooksConfig(where: Where, json: unknown, env: Environment): readonly WebhookConfig[] {
  const names = new Set<string>();
  return array(where, json).map((item, index) => {
    const w = at(where, index);
    const file = object(w, item, ['name', 'url', 'headers', 'events', 'secretEnv']);
    const name = string(at(w, 'name'), file.name, { regex: /^\S.{0,99}$/, description: 'a name of 1 to 100 characters' });
    if (names.has(name)) fail(at(w, 'name'), `repeats the name of another webhook ${got(name)}`);
    // The outbox's name for config/cache.json's purges (cache/purge.ts PURGE_TARGET).
    if (name === 'capi:cache-purge') fail(at(w, 'name'), `is reserved for the CDN purges of config/cache.json ${got(name)}`);
    names.add(name);
    const url = string(at(w, 'url'), file.url);
    if (!/^https?:\/\/[^/\s]+/.test(url) || !URL.canParse(url)) fail(at(w, 'url'), `must be an http:// or https:// URL ${got(url)}`);
    const headersJson = object(at(w, 'headers'), file.headers ?? {}, Object.keys(file.headers ?? {}));
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(headersJson)) {
      if (!HEADER_NAME.test(key)) fail(at(at(w, 'headers'), key), 'is not a valid HTTP header name');
      headers[key] = string(at(at(w, 'headers'), key), value);
    }
    const eventList = array(at(w, 'events'), file.events);
    if (eventList.length === 0) fail(at(w, 'events'), 'must list at least one event');
    const events = eventList.map((event, i) => oneOf(at(at(w, 'events'), i), event, webhookEvents));
    const secretEnv = file.secretEnv === undefined ? undefined : string(at(w, 'secretEnv'), file.secretEnv);
    const secret = secretEnv === undefined ? null : (env[secretEnv] ?? '');
    if (secret === '') fail(at(w, 'secretEnv'), `names the environment variable ${secretEnv}, which is not set`);
    return { name, url, headers, events: [...new Set(events)], secret };
  });
}
