/**
 * Type-level tests of the generated client: types.check.ts states, with vitest's expectTypeOf and
 * `@ts-expect-error`, which keys a populate adds, which a `fields` removes, how filters and
 * inputs are typed. It passes when tsc (strict, browser libs) compiles it without a diagnostic;
 * a mutated copy shows that a wrong expectation is caught.
 */
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/model.ts';
import { tsc } from './example.ts';

const here = join(repoRoot, 'test', 'client');

describe('result types computed from the query', () => {
  it('compiles every expectation of types.check.ts', async () => {
    await expect(tsc(['-p', join(here, 'tsconfig.json')], here)).resolves.toBe('');
  });

  it('fails when an expectation is wrong: a populated key missing, or a removed one present', async () => {
    const source = readFileSync(join(here, 'types.check.ts'), 'utf8');
    const mutated = join(here, `types.mutated-${process.pid}.check.ts`);
    const config = join(here, `tsconfig.mutated-${process.pid}.json`);
    const cases = [
      // populate ['author', 'tags'] without 'tags' in the expected keys
      source.replace("toEqualTypeOf<Ids | ArticleScalars | 'author' | 'tags'>()", "toEqualTypeOf<Ids | ArticleScalars | 'author'>()"),
      // fields ['title'] expected to keep 'slug'
      source.replace("toEqualTypeOf<Ids | 'title' | 'author' | 'tags'>()", "toEqualTypeOf<Ids | 'title' | 'slug' | 'author' | 'tags'>()"),
    ];
    try {
      copyFileSync(join(here, 'tsconfig.json'), config);
      writeFileSync(config, readFileSync(config, 'utf8').replace('"types.check.ts"', `"types.mutated-${process.pid}.check.ts"`));
      for (const text of cases) {
        expect(text).not.toBe(source);
        writeFileSync(mutated, text);
        await expect(tsc(['-p', config], here)).rejects.toThrow(/TS2344/);
      }
    } finally {
      rmSync(mutated, { force: true });
      rmSync(config, { force: true });
    }
  });
});
