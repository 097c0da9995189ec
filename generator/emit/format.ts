/** One formatting style for every TypeScript file capi emits, so generated code reads as written. */
import { format } from 'prettier';

const STYLE = { parser: 'typescript', singleQuote: true, printWidth: 100, trailingComma: 'all' } as const;

export function formatTypeScript(source: string): Promise<string> {
  return format(source, STYLE);
}
