import type { SchemaFile } from '../load.ts';

/** A problem before it is given a line and column: what every check returns. */
export interface Finding {
  readonly file: string;
  readonly pointer: string;
  readonly message: string;
  readonly hint: string;
}

export function finding(file: SchemaFile, pointer: string, message: string, hint: string): Finding {
  return { file: file.path, pointer, message, hint };
}
