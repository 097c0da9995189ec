/**
 * The example front end compiles with `tsc --strict` against the generated client package
 * (test/http/client.test.ts runs it against a server).
 */
import { describe, expect, it } from 'vitest';
import { checkExample } from './example.ts';

describe('examples/front-end', () => {
  it('type-checks with --strict against the installed client package', async () => {
    await expect(checkExample()).resolves.toBe('');
  });
});
