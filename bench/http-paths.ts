/**
 * `npm run bench:http-paths -- [--database sqlite|postgres] [--seconds 10] [--rounds 2]`: one
 * server answering every request through Express (`CAPI_DIRECT_PATH=0`) against one answering the
 * content API's reads and GraphQL POSTs on the direct path (the default, direct.ts), loaded
 * alternately on the same database (bench/paired.ts). Prints a Markdown table.
 */
import { runPairedBench } from './paired.ts';

await runPairedBench({
  name: 'http',
  subject: 'HTTP path',
  a: { label: 'Express', env: { CAPI_DIRECT_PATH: '0' } },
  b: { label: 'direct', env: {} },
});
