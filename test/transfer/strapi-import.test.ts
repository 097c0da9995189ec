/**
 * `capi import` of a real Strapi 5.54 export (test/fixtures/strapi-export: the conformance seed
 * and two registered users), on every database: afterwards the content API answers what
 * that Strapi answered for the same requests (the conformance cases, replayed with the seed map
 * of the Strapi instance the archive came from), users sign in with their passwords, media files
 * are on disk and new rows get fresh ids.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capi, type RunningServer } from '../support/cli.ts';
import { strapiExportDir } from '../support/fixtures.ts';
import { repoRoot } from '../support/model.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';
import { caseNames, prepareProject, runCases, startReferenceServer, type ConformanceRun, type HarnessOptions } from '../conformance/harness.ts';

const archive = join(strapiExportDir, 'conformance-seed.tar');

/**
 * Cases capi answers differently from Strapi on purpose, whatever the data came from: the
 * conformance tests (test/conformance/rest.test.ts, graphql.test.ts) give the reasons.
 */
const deliberateDifferences: ReadonlySet<string> = new Set(['rest-pagination-limit-minus-one', 'gql-scalars-all-types', 'gql-introspection-full-schema']);

/** Cases an import cannot make match, and why (docs/migrating-from-strapi.md lists them too). */
export const importDifferences: Readonly<Record<string, string>> = {};

/** The reference configuration, plus sign-in for everyone and /users/me for signed-in users. */
function allowSignIn(project: string): void {
  const path = join(project, 'config', 'permissions.json');
  const permissions = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string[]>;
  permissions['public']?.push('plugin::users-permissions.auth.callback');
  permissions['authenticated']?.push('plugin::users-permissions.user.me');
  writeFileSync(path, JSON.stringify(permissions, null, 2));
}

describe.each(clients)('a real Strapi export imported on %s', (database) => {
  let pg: TestDatabase | undefined;
  let server: RunningServer | undefined;
  let project: string;
  let options: HarnessOptions;
  let run: ConformanceRun;
  let imported: { code: number; stdout: string; stderr: string };
  let dryRun: { code: number; stdout: string; stderr: string };
  let env: NodeJS.ProcessEnv;
  let permissionsBefore: string;

  beforeAll(async () => {
    pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_import');
    options = { database, workDir: join(repoRoot, 'tmp', `strapi-import-${database}-${process.pid}`), ...(pg === undefined ? {} : { databaseUrl: pg.url }) };
    project = await prepareProject(options);
    allowSignIn(project);
    permissionsBefore = readFileSync(join(project, 'config', 'permissions.json'), 'utf8');
    env = { DATABASE_URL: database === 'sqlite' ? `file:${join(options.workDir, 'conformance.db')}` : (pg?.url ?? '') };
    dryRun = await capi(['import', archive, '--project', project, '--dry-run'], repoRoot, env);
    imported = await capi(['import', archive, '--project', project], repoRoot, env);
    server = await startReferenceServer(project, options, { JWT_SECRET: 'import-test-secret-import-test-secret' });
    run = await runCases(server, options, join(strapiExportDir, 'seed-map.json'));
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    await pg?.drop();
    rmSync(options.workDir, { recursive: true, force: true });
  });

  it('dry run: prints the counts and what is left out, exits 0, writes nothing', () => {
    expect(dryRun.code).toBe(0);
    expect(dryRun.stdout).toMatch(/^ {2}api::tag\.tag +30$/m);
    expect(dryRun.stdout).toContain('plugin::users-permissions.permission (59): capi keeps role permissions in config/permissions.json');
    expect(dryRun.stderr).toMatch(/dry run: every line and file checked, nothing written \(\d+ ms\); the import also checks its rows together/);
    // Not a terminal: one line per finished stage instead of bars.
    expect(dryRun.stderr).toMatch(/✓ check +437/);
  });

  it('draws one progress bar per stage on a terminal', () => {
    // script(1) gives the command a pseudo-terminal, as a person running it has. (A dry run with
    // --force: the project has content by now, which --force would replace.)
    const command = [process.execPath, join(repoRoot, 'bin', 'capi.mjs'), 'import', archive, '--project', project, '--dry-run', '--force'].map((a) => `'${a}'`).join(' ');
    const ran = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', env: { ...process.env, ...env } });
    expect(ran.status).toBe(0);
    expect(ran.stdout).toMatch(/ check +\[█+\] 437\/437/);
  });

  it('imports every entity, component, link and file and says so, stage by stage', () => {
    expect(imported.code).toBe(0);
    expect(imported.stderr).toMatch(/✓ entities +141\n +✓ assets +7\n +✓ links +289\n/);
    expect(imported.stderr).toMatch(/imported 79 entries, 40 components, 83 links, 7 files in \d+\.\d s/);
  });

  it("brings the export's roles but adds no grant: config/permissions.json is as it was", () => {
    expect(imported.code).toBe(0);
    expect(readFileSync(join(project, 'config', 'permissions.json'), 'utf8')).toBe(permissionsBefore);
  });

  it('refuses to import again (exit 1, nothing changed); export then import --force gives the same answers', async () => {
    const again = await capi(['import', archive, '--project', project], repoRoot, env);
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/^error: the project already has content \(\d+ rows\): --force replaces it$/m);
    expect(again.stderr).toContain('capi: nothing was imported: fix the problems above (or see --force, --allow-missing)');
    const backup = join(options.workDir, 'backup.tar');
    const exported = await capi(['export', backup, '--project', project], repoRoot, env);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toMatch(/exported 79 entries, 83 links, 7 files to .*backup\.tar\.gz/);
    const before = await fetch(`${server!.url}/api/articles?populate=*&status=draft`).then((r) => r.text());
    const forced = await capi(['import', `${backup}.gz`, '--project', project, '--force'], repoRoot, env);
    expect(forced.code).toBe(0);
    expect(await fetch(`${server!.url}/api/articles?populate=*&status=draft`).then((r) => r.text())).toBe(before);
  });

  it('answers every recorded case as the Strapi it came from', () => {
    expect(run.results.map((r) => r.name).sort()).toEqual([...caseNames('rest-'), ...caseNames('gql-')].sort());
    const unexpected = run.results.filter((r) => !r.passed && !deliberateDifferences.has(r.name) && !(r.name in importDifferences)).map((r) => `${r.name}\n  ${r.diff.join('\n  ')}`);
    expect(unexpected).toEqual([]);
  });

  it("copies the media files, formats included, byte for byte, under their URLs' names", async () => {
    const uploads = join(project, 'public', 'uploads');
    const names = readdirSync(uploads)
      .filter((n) => !n.startsWith('.'))
      .sort();
    expect(names).toEqual([
      'blue_828e5825d9.png',
      'green_d055bdd408.png',
      'large_gradient_767c8976de.png',
      'manual_a5e19695ec.pdf',
      'photo_6eadb8bb04.jpg',
      'red_12fe9cd221.png',
      'thumbnail_large_gradient_767c8976de.png',
    ]);
    expect(statSync(join(uploads, 'thumbnail_large_gradient_767c8976de.png')).size).toBe(92247);
    // No staging folder is left behind.
    expect(readdirSync(join(uploads, '.tmp'))).toEqual([]);
    const served = await fetch(`${server!.url}/uploads/manual_a5e19695ec.pdf`);
    expect(served.status).toBe(200);
    expect(
      Buffer.from(await served.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('lets the imported users sign in with their Strapi passwords, with their role', async () => {
    for (const [identifier, password, username] of [
      ['ada@example.com', 'Ada-Secret-1', 'ada'],
      ['alan', 'Alan-Secret-2', 'alan'],
    ] as const) {
      const response = await fetch(`${server!.url}/api/auth/local`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier, password }) });
      const body = (await response.json()) as { jwt?: string; user?: { username: string; documentId: string } };
      expect(response.status).toBe(200);
      expect(body.user?.username).toBe(username);
      const me = await fetch(`${server!.url}/api/users/me?populate=role`, { headers: { authorization: `Bearer ${body.jwt}` } });
      expect(((await me.json()) as { role?: { type: string } }).role?.type).toBe('authenticated');
    }
    const wrong = await fetch(`${server!.url}/api/auth/local`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ identifier: 'ada', password: 'nope-nope' }) });
    expect(wrong.status).toBe(400);
  });

  it('keeps documentIds and gives new rows ids after the imported ones (sequences moved on PostgreSQL)', async () => {
    const map = JSON.parse(readFileSync(join(strapiExportDir, 'seed-map.json'), 'utf8')) as { documents: Record<string, { documentId: string }> };
    const category = await fetch(`${server!.url}/api/categories/${map.documents['cat-tech']!.documentId}`);
    expect(((await category.json()) as { data: { name: string } }).data.name).toBe('Tech');
    const tags = await fetch(`${server!.url}/api/tags?pagination[pageSize]=100`).then((r) => r.json() as Promise<{ data: { id: number; documentId: string }[] }>);
    const maxId = Math.max(...tags.data.map((t) => t.id));
    const created = await fetch(`${server!.url}/api/tags`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data: { name: 'brand new tag' } }) });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { data: { id: number } };
    expect(body.data.id).toBeGreaterThan(maxId);
  });
});
