/**
 * The generated project's package-lock.json, so that `npm ci` works there (Docker builds, CI).
 * Its dependencies are a subset of capi's own, with capi's version ranges, so the lockfile is
 * cut out of capi's: the packages the generated package.json's dependencies reach, at the same
 * locations in node_modules, with the same versions and integrity hashes. Generating stays offline
 * and deterministic, and the project installs exactly the versions capi is tested with.
 *
 * npm's per-package flags (`dev`, `optional`, `devOptional`, `peer`) depend on the root, so they
 * are computed again for the project: `npm ci --omit=dev` decides what to install from them.
 */

/** One entry of a lockfileVersion 3 `packages` map (the fields capi relies on; the rest are copied). */
export interface LockedPackage {
  readonly version?: string;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly peerDependenciesMeta?: Readonly<Record<string, { readonly optional?: boolean }>>;
  readonly hasInstallScript?: boolean;
  readonly dev?: boolean;
  readonly optional?: boolean;
  readonly devOptional?: boolean;
  readonly peer?: boolean;
  readonly [field: string]: unknown;
}

export interface Lockfile {
  readonly name: string;
  readonly version: string;
  readonly lockfileVersion: 3;
  readonly requires: true;
  readonly packages: Readonly<Record<string, LockedPackage>>;
}

/** What the project's package.json declares, as the lockfile's root entry repeats it. */
export interface ProjectManifest {
  readonly name: string;
  readonly version: string;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly devDependencies: Readonly<Record<string, string>>;
  readonly engines?: Readonly<Record<string, string>>;
}

/** How a package is reached from the root: through devDependencies, only optional edges, a peer edge. */
interface Reach {
  readonly dev: boolean;
  readonly optional: boolean;
  readonly peer: boolean;
}

/** An edge from one package to another, as npm classifies it. */
interface Edge {
  readonly name: string;
  readonly optional: boolean;
  readonly peer: boolean;
}

/** Thrown when capi's own lockfile lacks a package the project needs (run `npm install` in capi). */
export class LockfileError extends Error {
  override readonly name = 'LockfileError';
}

/** The project's lockfile, cut out of `source` (capi's package-lock.json). */
export function projectLockfile(source: Lockfile, manifest: ProjectManifest): Lockfile {
  if (source.lockfileVersion !== 3) throw new LockfileError(`capi's package-lock.json has lockfileVersion ${String(source.lockfileVersion)}; 3 is needed`);
  const reached = reachFromRoot(source, manifest);
  const packages: Record<string, LockedPackage> = {
    '': {
      name: manifest.name,
      version: manifest.version,
      dependencies: manifest.dependencies,
      devDependencies: manifest.devDependencies,
      ...(manifest.engines === undefined ? {} : { engines: manifest.engines }),
    },
  };
  for (const location of [...reached.keys()].sort()) {
    const { dev: _dev, optional: _optional, devOptional: _devOptional, peer: _peer, ...entry } = source.packages[location] ?? {};
    packages[location] = { ...entry, ...flagsOf(reached.get(location) ?? []) };
  }
  return { name: manifest.name, version: manifest.version, lockfileVersion: 3, requires: true, packages };
}

/** The packages of the lockfile that have install scripts (npm's `hasInstallScript`), by name. */
export function packagesWithInstallScripts(lock: Lockfile): string[] {
  const names = new Set<string>();
  for (const [location, entry] of Object.entries(lock.packages)) {
    if (location !== '' && entry.hasInstallScript === true) names.add(packageNameAt(location));
  }
  return [...names].sort();
}

/**
 * Every package location the root's dependencies reach, with each way it is reached. Optional
 * peers are not followed: npm installs them only when something else needs them.
 */
function reachFromRoot(source: Lockfile, manifest: ProjectManifest): Map<string, Reach[]> {
  const reached = new Map<string, Reach[]>();
  const queue: Array<{ location: string; reach: Reach }> = [];
  const visit = (from: string, edge: Edge, via: Reach): void => {
    const location = resolve(source, from, edge.name);
    if (location === undefined) {
      if (edge.optional) return;
      throw new LockfileError(`capi's package-lock.json has no ${edge.name} (needed by ${from === '' ? 'the project' : packageNameAt(from)}); run npm install in capi`);
    }
    const reach = { dev: via.dev, optional: via.optional || edge.optional, peer: via.peer || edge.peer };
    const known = reached.get(location) ?? [];
    // A way that is no weaker than one already seen adds nothing.
    if (known.some((k) => (!k.dev || reach.dev) && (!k.optional || reach.optional) && (!k.peer || reach.peer))) return;
    reached.set(location, [...known, reach]);
    queue.push({ location, reach });
  };
  const root: Reach = { dev: false, optional: false, peer: false };
  for (const name of Object.keys(manifest.dependencies)) visit('', { name, optional: false, peer: false }, root);
  for (const name of Object.keys(manifest.devDependencies)) visit('', { name, optional: false, peer: false }, { ...root, dev: true });
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const edge of edgesOf(source.packages[next.location] ?? {})) visit(next.location, edge, next.reach);
  }
  return reached;
}

function edgesOf(entry: LockedPackage): Edge[] {
  const optionalNames = new Set(Object.keys(entry.optionalDependencies ?? {}));
  const edges: Edge[] = Object.keys(entry.dependencies ?? {}).map((name) => ({ name, optional: optionalNames.has(name), peer: false }));
  for (const name of optionalNames) if (!(name in (entry.dependencies ?? {}))) edges.push({ name, optional: true, peer: false });
  for (const name of Object.keys(entry.peerDependencies ?? {})) {
    if (entry.peerDependenciesMeta?.[name]?.optional !== true) edges.push({ name, optional: false, peer: true });
  }
  return edges;
}

/** Node's module resolution over lockfile locations: the nearest `node_modules/<name>` up from `from`. */
function resolve(source: Lockfile, from: string, name: string): string | undefined {
  let base = from;
  for (;;) {
    const candidate = base === '' ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (candidate in source.packages) return candidate;
    if (base === '') return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut === -1 ? '' : base.slice(0, cut);
  }
}

/** npm's flags: true when no way of reaching the package avoids the condition. */
function flagsOf(reaches: readonly Reach[]): Pick<LockedPackage, 'dev' | 'optional' | 'devOptional' | 'peer'> {
  const dev = reaches.every((r) => r.dev);
  const optional = reaches.every((r) => r.optional);
  const devOptional = reaches.every((r) => r.dev || r.optional);
  const peer = reaches.every((r) => r.peer);
  return {
    ...(dev ? { dev: true } : {}),
    ...(optional ? { optional: true } : {}),
    // npm writes devOptional only when neither dev nor optional says it already.
    ...(devOptional && !dev && !optional ? { devOptional: true } : {}),
    ...(peer ? { peer: true } : {}),
  };
}

/** `node_modules/a/node_modules/@s/b` -> `@s/b`. */
function packageNameAt(location: string): string {
  return location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);
}
