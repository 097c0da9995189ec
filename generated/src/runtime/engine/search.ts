/**
 * `_q`, Strapi's full-text search, as its database layer does it: the search text (LIKE
 * wildcards escaped) must occur, ignoring case, in at least one searchable column of the row
 * (which types are searched, and how, is each type's `search` in the contract's SCALAR_TYPES):
 * - `id`, always (in effect: the column is left out of the SQL when the text is not all digits,
 *   since the id's text could not contain it);
 * - text attributes (string, text, richtext, email, uid, enumeration) and the text system
 *   fields `documentId` and `locale`;
 * - number attributes (integer, biginteger, decimal, float) too when the text reads as a number
 *   (lodash's `toNumber`, as Strapi tests it: `42`, `4.2`, `1e3`, ` `), compared as their text.
 * Private attributes and passwords are never searched (Strapi searches private attributes; capi
 * keeps them out so that `_q` cannot probe hidden values). Other types (json, blocks, booleans,
 * dates) are not searched, as in Strapi.
 *
 * PostgreSQL compares text columns with `ILIKE` on the column itself, so that trigram indexes
 * (`gin_trgm_ops`) on the text columns can serve a search for text; SQLite's `LIKE` ignores ASCII
 * case as Strapi's does. docs/rest-api.md says why capi creates no such index itself.
 */
import { SCALAR_TYPE_SPECS } from '../../contract/scalar-types.ts';
import type { Dialect } from '../database.ts';
import { toNumber } from '../query/raw.ts';
import type { ScalarColumn, TypeInfo } from './registry.ts';
import { column, escapeLike, fragment, or, type Fragment } from './sql.ts';

/** The condition `_q=text` puts on rows of `type` at `alias`. */
export function searchCondition(dialect: Dialect, type: TypeInfo, alias: string, text: string): Fragment {
  const numeric = !Number.isNaN(toNumber(text));
  const pattern = `%${escapeLike(text)}%`;
  const columns = [...type.columns.values()].filter((scalar) => searched(scalar, numeric, text));
  return or(columns.map((scalar) => matches(dialect, alias, scalar, pattern)));
}

/**
 * The id's text is digits only, so `%text%` can match it only when the text is digits: other
 * texts leave the id out, which changes no answer and lets text-column indexes serve the search.
 */
const DIGITS = /^[0-9]+$/;

function searched(scalar: ScalarColumn, numeric: boolean, text: string): boolean {
  if (scalar.name === 'id') return DIGITS.test(text);
  if (scalar.hidden) return false;
  const kind = SCALAR_TYPE_SPECS[scalar.type].search;
  return kind === 'text' || (kind === 'number' && numeric);
}

function matches(dialect: Dialect, alias: string, scalar: ScalarColumn, pattern: string): Fragment {
  const expr = column(alias, scalar.column);
  const text = SCALAR_TYPE_SPECS[scalar.type].search === 'text' ? expr : dialect.textCast(expr);
  return fragment(`${text} ${dialect.caseInsensitiveLike} ? ESCAPE '\\'`, [pattern]);
}
