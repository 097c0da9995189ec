/**
 * Files capi writes and the user also edits: package.json. capi owns the keys it emits (name,
 * scripts it defines, the dependencies the runtime needs, at capi's versions, the install-script
 * approvals); what the user added beside them (dependencies, scripts, approvals, other top-level
 * keys) is carried into every regeneration, so `capi generate` never silently reverts it.
 *
 * package-lock.json follows: capi's cut of its own lockfile locks only capi's dependencies, so
 * once the user has added dependencies of their own the lockfile is theirs (npm install keeps it
 * in step), and capi writes it only when there is none.
 */
import { join } from 'node:path';
import type { EmittedFile } from './emit/files.ts';
import { read } from './write.ts';

const PACKAGE_JSON = 'package.json';
const LOCKFILE = 'package-lock.json';
const DEPENDENCIES = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const;
/** Objects whose entries are merged one by one: capi's entries win, the user's others stay. */
const MERGED = ['scripts', ...DEPENDENCIES, 'allowScripts'] as const;

export function keepUserEdits(outDir: string, files: readonly EmittedFile[]): EmittedFile[] {
  const emitted = files.find((file) => file.path === PACKAGE_JSON);
  const current = read(join(outDir, PACKAGE_JSON));
  if (emitted === undefined || current === undefined) return [...files];
  const merged = mergePackageJson(current, emitted.contents);
  const lockIsUsers = addsDependencies(emitted.contents, merged);
  return files.map((file) => {
    if (file.path === PACKAGE_JSON) return { ...file, contents: merged };
    if (file.path === LOCKFILE && lockIsUsers) return { ...file, policy: 'create-once' };
    return file;
  });
}

/** Whether `merged` depends on a package that `emitted` does not. */
export function addsDependencies(emitted: string, merged: string): boolean {
  const ours = JSON.parse(emitted) as JsonObject;
  const theirs = JSON.parse(merged) as JsonObject;
  return DEPENDENCIES.some((key) => {
    const mine = isObject(ours[key]) ? ours[key] : {};
    const all = isObject(theirs[key]) ? theirs[key] : {};
    return Object.keys(all).some((name) => !(name in mine));
  });
}

type JsonObject = Record<string, unknown>;

export function mergePackageJson(current: string, emitted: string): string {
  let user: unknown;
  try {
    user = JSON.parse(current);
  } catch {
    return emitted; // an unreadable package.json has no edits to keep
  }
  if (!isObject(user)) return emitted;
  const ours = JSON.parse(emitted) as JsonObject;
  const merged: JsonObject = { ...ours };
  for (const [key, value] of Object.entries(user)) if (!(key in ours)) merged[key] = value;
  for (const key of MERGED) {
    const theirs = user[key];
    if (!isObject(theirs)) continue;
    const base = isObject(ours[key]) ? ours[key] : {};
    merged[key] = { ...base, ...Object.fromEntries(Object.entries(theirs).filter(([name]) => !(name in base))) };
  }
  // A denial is the user's to make, as npm's own approve never re-allows a denied package.
  const approvals = merged.allowScripts;
  if (isObject(user.allowScripts) && isObject(approvals)) {
    for (const [name, allowed] of Object.entries(user.allowScripts)) if (allowed === false) approvals[name] = false;
  }
  return `${JSON.stringify(merged, null, 2)}\n`;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
