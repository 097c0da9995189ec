/**
 * A server killed (SIGKILL) while an upload is being received leaves its work folder behind; the
 * next server to start on the same project removes it before it answers anything, keeps the work
 * folders of processes that still run, and no row of the upload exists. SQLite and PostgreSQL.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { workDirOwner } from '../../templates/runtime/upload/storage.ts';
import { prepareProject, startReferenceServer, type HarnessOptions } from '../conformance/harness.ts';
import type { RunningServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { clients, createServerDatabase } from '../support/databases.ts';
import type { TestDatabase } from '../support/postgres.ts';

/** Every file under `dir`, relative. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}

describe.each(clients)('upload work folders after a crash on %s', (database) => {
  let pg: TestDatabase | undefined;
  let options: HarnessOptions;
  let project: string;

  beforeAll(async () => {
    pg = database === 'sqlite' ? undefined : await createServerDatabase(database, 'capi_upload_crash');
    options = { database, workDir: join(repoRoot, 'tmp', `upload-crash-${database}-${process.pid}`), ...(pg ? { databaseUrl: pg.url } : {}) };
    project = await prepareProject(options);
  });
  afterAll(async () => {
    await pg?.drop();
  });

  it('sweeps the half-received upload of a killed server at the next start-up, leaving no row', async () => {
    const uploads = join(project, 'public', 'uploads');
    const work = join(uploads, '.tmp');
    let server: RunningServer = await startReferenceServer(project, options);
    const listed = async (): Promise<unknown[]> => (await (await fetch(`${server.url}/api/upload/files`)).json()) as unknown[];
    try {
      expect(await listed()).toEqual([]);
      // The start of a large upload, streamed to disk by the server...
      const request = http.request(`${server.url}/api/upload`, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=xyz', 'content-length': String(10_000_000) },
      });
      request.on('error', () => undefined);
      request.write('--xyz\r\nContent-Disposition: form-data; name="files"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n');
      request.write(Buffer.alloc(300_000, 1));
      await vi.waitFor(() => expect(tree(work).length).toBeGreaterThan(0), { timeout: 10_000 });
      // ...when the server dies without running any shutdown code.
      await server.kill();
      request.destroy();
    } finally {
      await server.stop();
    }
    const [leftover, ...others] = readdirSync(work);
    expect(others).toEqual([]);
    const owner = workDirOwner(leftover ?? '');
    expect(owner).toBeDefined();
    // The work folder of a process that still runs on this machine (this test's) is not touched.
    const live = `work-${owner?.host ?? ''}-${process.pid}-livexx`;
    mkdirSync(join(work, live));

    server = await startReferenceServer(project, options);
    try {
      expect(readdirSync(work)).toEqual([live]);
      expect(tree(uploads)).toEqual([]);
      expect(await listed()).toEqual([]);
      expect(server.output()).toContain('removed the work folders of processes that are gone');
    } finally {
      await server.stop();
    }
  });
});
