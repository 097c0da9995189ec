/**
 * A model whose type names are those the client declares or imports (`Schema`, `Entry`,
 * `Client`, `Filters`) still yields a client
 * that compiles: the clashing names get a number, helpers the model shadows are not re-exported.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { capi, scratch } from '../support/cli.ts';

const work = scratch('client-names');
afterAll(() => work.dispose());

function contentType(singular: string, plural: string): object {
  return {
    kind: 'collectionType',
    collectionName: plural.replace(/-/g, '_'),
    info: { singularName: singular, pluralName: plural, displayName: singular },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' }, when: { type: 'datetime' }, kind: { type: 'enumeration', enum: ["it's", 'plain'] } },
  };
}

describe('client names', () => {
  it('compiles when type names clash with the client’s own', async () => {
    const types = join(work.dir, 'content-types');
    mkdirSync(types, { recursive: true });
    const names: [string, string][] = [
      ['schema', 'schemas'],
      ['entry', 'entries'],
      ['client', 'clients'],
      ['filters', 'filterss'],
    ];
    for (const [singular, plural] of names) writeFileSync(join(types, `${singular}.json`), JSON.stringify(contentType(singular, plural)));
    const out = join(work.dir, 'project');
    const generated = await capi(['generate', '--content-types', types, '--out', out, '--quiet']);
    expect(generated.stderr).toBe('');
    expect(generated.code).toBe(0);
    const schema = readFileSync(join(out, 'client', 'src', 'schema.ts'), 'utf8');
    expect(schema).toContain('export type Schema2<Q = {}>');
    expect(schema).toContain('export type Client2<Q = {}>');
    expect(schema).toContain('export type Entry<Q = {}>');
    expect(schema).toContain(`"it's" | 'plain'`);
    const index = readFileSync(join(out, 'client', 'src', 'index.ts'), 'utf8');
    // The model's Entry and Filters types win; the helpers of those names are not re-exported.
    expect(index).not.toMatch(/\b(Entry|Filters),/);
    expect(readFileSync(join(out, 'client', 'dist', 'index.d.ts'), 'utf8')).toContain('export type Client = CapiClient<Schema>;');
  });
});
