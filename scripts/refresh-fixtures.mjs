#!/usr/bin/env node
/**
 * `npm run fixtures:refresh [-- --from DIR] [-- --check]`: copies the recorded Strapi material the
 * tests and the benchmark read from the shared project folder (default `../shared`, beside the
 * repository) into the repository, so that the suite runs on a clone with nothing beside it.
 * Every destination folder is replaced as a whole (a case removed upstream disappears here too).
 * `--check` copies nothing and exits 1 listing what differs.
 */
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const repoRoot = resolve(import.meta.dirname, '..');

/** What is copied: source (relative to the shared folder) -> destination (relative to the repository). */
const FIXTURES = [
  // The conformance suite: the model, the cases, Strapi's answers and the tools that replay them.
  ['conformance/README.md', 'test/fixtures/conformance/README.md'],
  ['conformance/cases.json', 'test/fixtures/conformance/cases.json'],
  ['conformance/golden', 'test/fixtures/conformance/golden'],
  ['conformance/content-types', 'test/fixtures/conformance/content-types'],
  ['conformance/seed.mjs', 'test/fixtures/conformance/seed.mjs'],
  ['conformance/run-cases.mjs', 'test/fixtures/conformance/run-cases.mjs'],
  ['conformance/compare.mjs', 'test/fixtures/conformance/compare.mjs'],
  // A real Strapi 5 data export of the conformance seed, for the import feature.
  ['conformance/strapi-export', 'test/fixtures/strapi-export'],
  // The benchmark's request shapes and Strapi's reference numbers for them.
  ['bench/shapes.mjs', 'bench/shapes.mjs'],
  ['bench/README.md', 'bench/strapi-reference.md'],
];

const { values } = parseArgs({ options: { from: { type: 'string' }, check: { type: 'boolean', default: false } } });
const shared = resolve(values.from ?? join(repoRoot, '..', 'shared'));
if (!existsSync(join(shared, 'conformance', 'cases.json'))) {
  process.stderr.write(`fixtures:refresh: ${shared} is not the shared folder (no conformance/cases.json); pass --from DIR\n`);
  process.exit(1);
}

/** Every file under path (path itself when it is a file), relative to path. */
function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [''];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(path, join(entry.parentPath, entry.name)))
    .sort();
}

/** The files that differ between source and destination: changed, missing here, or gone upstream. */
function differences(source, destination) {
  const from = files(source);
  const to = new Set(files(destination));
  const found = [];
  for (const file of from) {
    const a = join(source, file);
    const b = join(destination, file);
    if (!to.has(file)) found.push(`missing ${relative(repoRoot, b) || b}`);
    else if (!readFileSync(a).equals(readFileSync(b))) found.push(`differs ${relative(repoRoot, b)}`);
    to.delete(file);
  }
  for (const file of to) found.push(`stale   ${relative(repoRoot, join(destination, file))}`);
  return found;
}

/** The shared folder is read-only; its copies here are ordinary files the owner can replace. */
function makeWritable(path) {
  chmodSync(path, statSync(path).mode | 0o200);
  if (!statSync(path).isDirectory()) return;
  for (const entry of readdirSync(path, { recursive: true })) {
    const child = join(path, entry);
    chmodSync(child, statSync(child).mode | 0o200);
  }
}

const changes = [];
for (const [from, to] of FIXTURES) {
  const source = join(shared, from);
  const destination = join(repoRoot, to);
  if (!existsSync(source)) {
    process.stderr.write(`fixtures:refresh: ${source} is missing\n`);
    process.exit(1);
  }
  const found = differences(source, destination);
  changes.push(...found);
  if (values.check || found.length === 0) continue;
  rmSync(destination, { recursive: true, force: true });
  mkdirSync(dirname(destination), { recursive: true });
  cpSync(source, destination, { recursive: true });
  makeWritable(destination);
}

for (const line of changes) process.stdout.write(`${line}\n`);
if (values.check) {
  process.stdout.write(changes.length === 0 ? 'fixtures are up to date\n' : `${changes.length} fixture file(s) differ from ${shared}\n`);
  process.exit(changes.length === 0 ? 0 : 1);
}
process.stdout.write(`${changes.length === 0 ? 'nothing to refresh' : `${changes.length} file(s) refreshed`} from ${shared}\n`);
