/**
 * A problem found in the input, tied to the exact place that causes it. Every stage before
 * emission reports problems as values of this type, so that one run can list all of them.
 */
export interface Diagnostic {
  /** Path of the offending file, relative to the content-types directory when possible. */
  readonly file: string;
  /** RFC 6901 JSON pointer inside that file ("" is the whole document). */
  readonly pointer: string;
  /** One sentence saying what is wrong. */
  readonly message: string;
  /** One line saying how to fix it. */
  readonly hint: string;
  /** 1-based position of `pointer` in the file, when the file could be parsed. */
  readonly line?: number;
  readonly column?: number;
}

/** `file:line:column pointer message (hint)` — one line per problem, stable for tests. */
export function formatDiagnostic(d: Diagnostic): string {
  const where = d.line === undefined ? d.file : `${d.file}:${d.line}:${d.column ?? 1}`;
  const pointer = d.pointer === '' ? '#' : `#${d.pointer}`;
  return `${where} ${pointer}: ${d.message}\n    fix: ${d.hint}`;
}

/** Raised when a stage cannot continue; carries every problem found so far. */
export class SchemaError extends Error {
  override readonly name = 'SchemaError';
  constructor(readonly diagnostics: readonly Diagnostic[]) {
    super(`${diagnostics.length} problem(s) in the content-type schemas`);
  }
}

/** Escapes one reference token of a JSON pointer (RFC 6901). */
export function pointerToken(token: string | number): string {
  return String(token).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Builds a JSON pointer from its reference tokens. */
export function pointer(...tokens: ReadonlyArray<string | number>): string {
  return tokens.map((t) => `/${pointerToken(t)}`).join('');
}
