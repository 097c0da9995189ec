/** Whole models: the examples validate cleanly in both layouts, and broken ones report everything at once. */
import { cpSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../generator/diagnostics.ts';
import { compare, loadSchemas } from '../../generator/load.ts';
import { validateSchemas } from '../../generator/validate/index.ts';
import { conformanceDir } from '../support/fixtures.ts';
import { component, contentType, single, validateDir, validateModel } from './helpers.ts';

const EXAMPLE = fileURLToPath(new URL('../../content-types', import.meta.url));
const CONFORMANCE = join(conformanceDir, 'content-types');

/** Copies a flat model into a Strapi project's src/ layout. */
function asStrapiProject(flat: string): string {
  const project = mkdtempSync(join(tmpdir(), 'capi-strapi-'));
  for (const entry of readdirSync(flat).filter((e) => e.endsWith('.json'))) {
    const name = entry.slice(0, -'.json'.length);
    const dir = join(project, 'src', 'api', name, 'content-types', name);
    mkdirSync(dir, { recursive: true });
    cpSync(join(flat, entry), join(dir, 'schema.json'));
  }
  cpSync(join(flat, 'components'), join(project, 'src', 'components'), { recursive: true });
  return project;
}

describe('valid models', () => {
  it('the example content-types validate with no diagnostics', () => {
    const loaded = loadSchemas(EXAMPLE);
    // 18 files of the example, and users-permissions' user and role, built into every model.
    expect(loaded.files.length).toBe(20);
    expect(validateSchemas(loaded.files).map(formatDiagnostic)).toEqual([]);
  });

  it('the conformance model validates with no diagnostics', () => {
    expect(validateDir(CONFORMANCE).map(formatDiagnostic)).toEqual([]);
  });

  it('a Strapi src/ layout copy of the example validates the same', () => {
    const loaded = loadSchemas(asStrapiProject(EXAMPLE));
    expect(loaded.layout).toBe('strapi');
    expect(loaded.files.map((f) => f.uid).sort(compare)).toEqual(
      loadSchemas(EXAMPLE)
        .files.map((f) => f.uid)
        .sort(compare),
    );
    expect(validateSchemas(loaded.files).map(formatDiagnostic)).toEqual([]);
  });
});

describe('broken models', () => {
  it('reports every problem of several files in one run, sorted by file then pointer', () => {
    const diagnostics = validateModel({
      ...single('post', {
        title: { type: 'string', requierd: true },
        author: { type: 'relation', relation: 'manyToOne', target: 'api::author.author', inversedBy: 'articles' },
        seo: { type: 'component', component: 'shared.missing' },
      }),
      ...single('author', { id: { type: 'string' }, bio: { type: 'txt' } }),
      'tags.json': contentType('tag', { theme: { type: 'enumeration', enum: ['a-b', 'a b'] } }),
      'components/shared/seo.json': component('Seo', { zone: { type: 'dynamiczone', components: [] } }),
    });
    expect(diagnostics.map((d) => `${d.file} #${d.pointer}`)).toEqual([
      'author.json #/attributes/bio/type',
      'author.json #/attributes/id',
      'components/shared/seo.json #/attributes/zone/type',
      'post.json #/attributes/author/inversedBy',
      'post.json #/attributes/seo/component',
      'post.json #/attributes/title/requierd',
      'tags.json #/attributes/theme/enum/1',
      'tags.json #/info/singularName',
    ]);
    expect(diagnostics.every((d) => d.line !== undefined && d.column !== undefined)).toBe(true);
  });

  it('gives the line and column of the offending key', () => {
    const [diagnostic] = validateModel(single('post', { title: { type: 'string', requierd: true } }));
    expect(formatDiagnostic(diagnostic!)).toBe('post.json:15:19 #/attributes/title/requierd: unknown key "requierd"\n    fix: did you mean "required"?');
  });

  it('locates a missing key at its parent object', () => {
    const [diagnostic] = validateModel(single('post', { title: { required: true } }));
    expect(diagnostic).toMatchObject({ pointer: '/attributes/title/type', line: 13, column: 14 });
  });

  it('validates the files it is given, whatever their load diagnostics', () => {
    expect(validateSchemas([])).toEqual([]);
  });
});
