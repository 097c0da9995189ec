/**
 * `npm run bench:cache -- [--database sqlite|postgres] [--seconds 10] [--rounds 2]`: one server
 * with the generated config/cache.json (nothing on) against one with ETags, Cache-Control and
 * surrogate keys on for every type (config/cache.json), on the same database (bench/paired.ts):
 * what the headers cost a request that reaches the server. Prints a Markdown table.
 */
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runPairedBench } from './paired.ts';

/** The prepared project copied, with every cache header on. */
async function cachedProject(prepared: string, database: 'sqlite' | 'postgres'): Promise<string> {
  const project = join(prepared, '..', `project-cached-${database}`);
  rmSync(project, { recursive: true, force: true });
  cpSync(prepared, project, { recursive: true });
  const { model } = (await import(join(project, 'src', 'model.ts'))) as { model: { contentTypes: Record<string, { uid: string }> } };
  const cacheControl = Object.fromEntries([...Object.keys(model.contentTypes), 'graphql'].map((key) => [key, 'public, max-age=60, s-maxage=600']));
  writeFileSync(join(project, 'config', 'cache.json'), `${JSON.stringify({ etag: true, cacheControl, surrogateKeys: true }, null, 2)}\n`);
  return project;
}

await runPairedBench({
  name: 'cache',
  subject: 'cache headers',
  a: { label: 'off', env: {} },
  b: { label: 'etag + keys', env: {}, project: cachedProject },
});
