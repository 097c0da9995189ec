/** The published JSON Schemas: up to date with the validator, and usable on their own by any draft-07 tool. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { PUBLISHED_SCHEMAS, schemaText } from '../../generator/validate/write-schemas.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLE = join(ROOT, 'content-types');

function published(name: string): object {
  return JSON.parse(readFileSync(join(ROOT, 'schemas', name), 'utf8')) as object;
}

/** A plain ajv, as an editor or CI tool would use: no capi code involved. */
function compile(name: string): (json: unknown) => boolean {
  const ajv = new Ajv({ allErrors: true, strict: false });
  return ajv.compile(published(name));
}

function jsonFiles(dir: string): string[] {
  return readdirSync(dir)
    .filter((e) => e.endsWith('.json'))
    .map((e) => join(dir, e));
}

describe('published JSON Schemas', () => {
  it('are up to date (regenerate with: npx tsx generator/validate/write-schemas.ts)', () => {
    for (const [name, build] of PUBLISHED_SCHEMAS) {
      expect(readFileSync(join(ROOT, 'schemas', name), 'utf8'), name).toBe(schemaText(build()));
    }
  });

  it('carry an $id, a title and a description on every key of every definition', () => {
    for (const [name] of PUBLISHED_SCHEMAS) {
      const schema = published(name) as { $id?: string; title?: string; definitions: Record<string, { properties?: Record<string, { description?: string }> }> };
      expect(schema.$id).toMatch(/^urn:capi:schema:/);
      expect(schema.title).toBeTruthy();
      const undocumented = Object.entries(schema.definitions).flatMap(([definition, d]) =>
        Object.entries(d.properties ?? {})
          .filter(([, p]) => p.description === undefined)
          .map(([key]) => `${definition}.${key}`),
      );
      expect(undocumented, name).toEqual([]);
    }
  });

  it('accept every content type and component of the example', () => {
    const validateType = compile('content-type.schema.json');
    const validateComponent = compile('component.schema.json');
    const types = jsonFiles(EXAMPLE);
    const components = readdirSync(join(EXAMPLE, 'components')).flatMap((c) => jsonFiles(join(EXAMPLE, 'components', c)));
    expect(types.length + components.length).toBe(18);
    for (const file of types) expect(validateType(JSON.parse(readFileSync(file, 'utf8'))), file).toBe(true);
    for (const file of components) expect(validateComponent(JSON.parse(readFileSync(file, 'utf8'))), file).toBe(true);
  });

  it('accept every schema file of the real Strapi projects and of the every-key fixture, as Strapi wrote them', () => {
    const validateType = compile('content-type.schema.json');
    const validateComponent = compile('component.schema.json');
    const projects = join(ROOT, 'test', 'fixtures', 'strapi-projects');
    const roots = [...readdirSync(projects).map((p) => join(projects, p, 'src')), join(ROOT, 'test', 'fixtures', 'strapi-keys', 'src')];
    let checked = 0;
    for (const src of roots) {
      for (const api of readdirSync(join(src, 'api'))) {
        for (const type of readdirSync(join(src, 'api', api, 'content-types'))) {
          const file = join(src, 'api', api, 'content-types', type, 'schema.json');
          expect(validateType(JSON.parse(readFileSync(file, 'utf8'))), file).toBe(true);
          checked += 1;
        }
      }
      for (const category of readdirSync(join(src, 'components'))) {
        for (const file of jsonFiles(join(src, 'components', category))) {
          expect(validateComponent(JSON.parse(readFileSync(file, 'utf8'))), file).toBe(true);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('reject unknown attribute options and unknown types', () => {
    const validateType = compile('content-type.schema.json');
    const base = { kind: 'collectionType', collectionName: 'posts', info: { singularName: 'post', pluralName: 'posts', displayName: 'Post' } };
    expect(validateType({ ...base, attributes: { title: { type: 'string', requierd: true } } })).toBe(false);
    expect(validateType({ ...base, attributes: { title: { type: 'strnig' } } })).toBe(false);
    expect(validateType({ ...base, attributes: { title: { type: 'string', required: true } } })).toBe(true);
  });
});
