/**
 * validate: checks every schema file against the published JSON Schema of its kind, then the
 * rules that span values and files, and returns every problem at once, sorted by file and
 * pointer so that output is stable. An empty result means the model builder may trust the input.
 */
import { compare, type SchemaFile } from '../load.ts';
import type { Diagnostic } from '../diagnostics.ts';
import { normalizeSchemas } from '../normalize.ts';
import type { CustomFieldMapping } from './catalog.ts';
import type { Finding } from './finding.ts';
import { semanticFindings } from './semantic.ts';
import { structuralFindings } from './structural.ts';

export { componentSchema, contentTypeSchema, type JsonSchema } from './json-schema.ts';

export interface ValidateOptions {
  /** The project's custom-field mappings (capi.config.json). */
  readonly customFields?: Readonly<Record<string, CustomFieldMapping>>;
  /** False when some schema file did not load (ModelView.complete). */
  readonly complete?: boolean;
}

/** The raw files meet the published schemas; the rules that span files read them normalized. */
export function validateSchemas(files: readonly SchemaFile[], options: ValidateOptions = {}): Diagnostic[] {
  const findings = [...files.flatMap(structuralFindings), ...semanticFindings(normalizeSchemas(files, options.customFields ?? {}).files, options.complete ?? true)];
  const byPath = new Map(files.map((f) => [f.path, f]));
  return unique(findings)
    .sort(byFileThenPointer)
    .map((f) => ({ ...f, ...byPath.get(f.file)?.locate(f.pointer) }));
}

function byFileThenPointer(a: Finding, b: Finding): number {
  return compare(a.file, b.file) || compare(a.pointer, b.pointer) || compare(a.message, b.message);
}

/** Two rules may reach the same conclusion about one value; say it once. */
function unique(findings: readonly Finding[]): Finding[] {
  const seen = new Set<string>();
  return findings.filter((f) => {
    const key = `${f.file}\u0000${f.pointer}\u0000${f.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
