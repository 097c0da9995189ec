/**
 * Query parameters the content API does not read (`populateDynamicZone`, Strapi 4's `start` and
 * `limit`, a typo) are ignored, as Strapi's core controllers ignore them. A Strapi project whose
 * route or document middleware read such a parameter loses that behaviour in capi until the
 * middleware is ported (docs/extending.md), and nothing in the answer says so: so the server logs
 * each unknown name once per process, never per request. After MAX_NAMES names it stops noting new
 * ones, so that clients sending random names can neither grow memory nor flood the log.
 */
import type { Logger } from '../logger.ts';
import { ROOT_PARAMS } from './params.ts';

const KNOWN: ReadonlySet<string> = new Set(ROOT_PARAMS);

export const MAX_NAMES = 100;

export class UnknownQueryParams {
  readonly #seen = new Set<string>();

  constructor(private readonly logger: Logger) {}

  /** Logs the names of `query` the content API does not read and has not logged before. */
  note(query: Readonly<Record<string, unknown>>): void {
    if (this.#seen.size >= MAX_NAMES) return;
    for (const name of Object.keys(query)) {
      if (KNOWN.has(name) || this.#seen.has(name)) continue;
      this.#seen.add(name);
      if (this.#seen.size === MAX_NAMES) {
        this.logger.warn(`${MAX_NAMES} unknown query parameter names logged: further ones are ignored without a log`);
        return;
      }
      this.logger.warn(
        { param: name },
        `query parameter "${name}" is ignored: the content API does not read it (a Strapi route or document middleware that read it must be ported, see docs/extending.md); logged once`,
      );
    }
  }
}
