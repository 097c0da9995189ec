/**
 * The static tables runtime tests build in memory (test/support/runtime-model.ts) are the ones a
 * generated project runs on: the emitted src/model.ts, imported from a scratch folder
 * (test/support/example-project.ts), evaluates to the same model, key order included.
 */
import { describe, expect, it } from 'vitest';
import { emitExample } from '../support/example-project.ts';
import { model } from '../support/runtime-model.ts';

describe('static tables in memory', () => {
  it('equal what the emitted src/model.ts of content-types/ evaluates to', async () => {
    const emitted = await (await emitExample()).load<{ model: unknown }>('src/model.ts');
    expect(JSON.stringify(model)).toBe(JSON.stringify(emitted.model));
    expect(Object.keys(model.contentTypes)).toContain('plugin::users-permissions.user');
  });
});
