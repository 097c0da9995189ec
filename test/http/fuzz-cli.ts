/**
 * `npm run fuzz -- --runs N [--seed S] [--seconds T] [--database sqlite|postgres|mysql] [--verbose]`: the fuzz test
 * of test/http/fuzz.test.ts with more requests than `npm test` sends, for before a release.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { clients } from '../support/databases.ts';
import { repoRoot } from '../support/model.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '100000' },
    seed: { type: 'string' },
    seconds: { type: 'string', default: '3600' },
    database: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});
for (const [name, value] of Object.entries(values)) {
  if (typeof value === 'string' && name !== 'database' && !/^\d+$/.test(value)) throw new Error(`--${name} must be a whole number, got ${value}`);
}
if (values.database !== undefined && !(clients as readonly string[]).includes(values.database)) throw new Error(`--database must be one of ${clients.join(', ')}`);

const vitest = join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');
const filter = values.database === undefined ? [] : ['-t', `fuzz on ${values.database}`];
const result = spawnSync(process.execPath, [vitest, 'run', 'test/http/fuzz.test.ts', ...filter], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: {
    ...process.env,
    FUZZ_RUNS: values.runs,
    FUZZ_SECONDS: values.seconds,
    ...(values.seed === undefined ? {} : { FUZZ_SEED: values.seed }),
    ...(values.verbose ? { FUZZ_VERBOSE: '1' } : {}),
  },
});
process.exit(result.status ?? 1);
