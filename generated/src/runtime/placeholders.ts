/**
 * Rewrites `?` placeholders to PostgreSQL's `$1, $2, ...`, leaving alone question marks inside
 * string literals, quoted identifiers, dollar-quoted strings and comments. (PostgreSQL's jsonb
 * operators `?`, `?|`, `?&` cannot be written in statements with parameters; use
 * `jsonb_exists(...)` and friends instead.)
 */
export function toNumberedPlaceholders(sql: string): string {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const next = sql[i + 1];
    let end: number;
    if (c === "'" || c === '"') {
      // E'...' strings escape with backslashes as well as with doubled quotes.
      const escaped = c === "'" && /[Ee]/.test(sql[i - 1] ?? '') && !/[A-Za-z0-9_]/.test(sql[i - 2] ?? '');
      end = skipQuoted(sql, i, c, escaped);
    } else if (c === '-' && next === '-') {
      const newline = sql.indexOf('\n', i);
      end = newline === -1 ? sql.length : newline;
    } else if (c === '/' && next === '*') {
      const close = sql.indexOf('*/', i + 2);
      end = close === -1 ? sql.length : close + 2;
    } else if (c === '$' && /^\$[A-Za-z_]?[A-Za-z0-9_]*\$/.test(sql.slice(i, i + 64)) && !/[A-Za-z0-9_]/.test(sql[i - 1] ?? '')) {
      const tag = /^\$[A-Za-z_]?[A-Za-z0-9_]*\$/.exec(sql.slice(i))![0];
      const close = sql.indexOf(tag, i + tag.length);
      end = close === -1 ? sql.length : close + tag.length;
    } else if (c === '?') {
      out += `$${++n}`;
      i++;
      continue;
    } else {
      out += c;
      i++;
      continue;
    }
    out += sql.slice(i, end);
    i = end;
  }
  return out;
}

/** Index just past the closing quote; a doubled quote is an escaped one. */
function skipQuoted(sql: string, start: number, quote: string, backslashEscapes: boolean): number {
  let i = start + 1;
  while (i < sql.length) {
    if (backslashEscapes && sql[i] === '\\') {
      i += 2;
      continue;
    }
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i++;
  }
  return sql.length;
}
