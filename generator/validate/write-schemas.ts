/**
 * Writes the published JSON Schemas from json-schema.ts:
 *   npx tsx generator/validate/write-schemas.ts
 * test/validate/json-schema.test.ts fails when the files in schemas/ are out of date.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { componentSchema, contentTypeSchema, type JsonSchema } from './json-schema.ts';

export const PUBLISHED_SCHEMAS: ReadonlyArray<readonly [string, () => JsonSchema]> = [
  ['content-type.schema.json', contentTypeSchema],
  ['component.schema.json', componentSchema],
];

export function schemaText(schema: JsonSchema): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [name, build] of PUBLISHED_SCHEMAS) {
    const target = fileURLToPath(new URL(`../../schemas/${name}`, import.meta.url));
    writeFileSync(target, schemaText(build()));
    console.log(`wrote ${target}`);
  }
}
