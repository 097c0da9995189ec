/** The committed generated/ must be exactly what capi makes of content-types/: CI fails on drift. */
import { describe, expect, it } from 'vitest';
import { capi } from '../support/cli.ts';

describe('generated/', () => {
  it('is up to date with content-types/ (capi generate --check)', async () => {
    const result = await capi(['generate', '--check']);
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  });
});
