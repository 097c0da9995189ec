/**
 * `npm run bench:read-paths -- [--database sqlite|postgres] [--seconds 10] [--rounds 2]`: one
 * server reading populated edges one statement each (`CAPI_READ_PER_EDGE=1`, the fallback path)
 * against one reading each request in one statement (the default, engine/nested.ts), loaded
 * alternately on the same database (bench/paired.ts). Prints a Markdown table.
 */
import { runPairedBench } from './paired.ts';

await runPairedBench({
  name: 'paths',
  subject: 'path',
  a: { label: 'per-edge', env: { CAPI_READ_PER_EDGE: '1' } },
  b: { label: 'one-statement', env: {} },
});
