/**
 * A server killed (SIGKILL) while an upload is being received leaves its work folder behind; the
 * next server to start on the same project removes it before it answers anything, keeps the work
 * folders of processes that still run, and no row of the upload exists; the files an upload had
 * stored when its process died before writing their rows are deleted (upload/journal.ts).
 * SQLite, PostgreSQL and MySQL.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { workDirOwner } from '../../templates/runtime/upload/storage.ts';
import { prepareProject, startReferenceServer, type HarnessOptions } from '../conformance/harness.ts';
import type { RunningServer } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { clients, createServerDatabase, type Client } from '../support/databases.ts';
import { connect } from '../support/sql.ts';
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

  it('deletes the files of an upload killed before its rows were written, keeping every other file', async () => {
    const uploads = join(project, 'public', 'uploads');
    const databaseUrl = options.databaseUrl ?? `file:${join(options.workDir, 'conformance.db')}`;
    const post = (url: string, name: string, content: string) => {
      const form = new FormData();
      form.append('files', new Blob([content], { type: 'text/plain' }), name);
      return fetch(`${url}/api/upload`, { method: 'POST', body: form });
    };
    let server: RunningServer = await startReferenceServer(project, options);
    const before = new Map<string, string>();
    const sql = await connect(database, databaseUrl);
    try {
      expect((await post(server.url, 'kept.txt', 'stays as it is')).status).toBe(201);
      for (const name of tree(uploads).filter((name) => !name.startsWith('.tmp'))) before.set(name, readFileSync(join(uploads, name), 'utf8'));
      expect(before.size).toBe(1);
      // The files table is locked, so the upload stores its file and then waits to write its row...
      await sql.run(LOCK_FILES[database]);
      const pending = post(server.url, 'lost.txt', 'no row will name me').catch(() => undefined);
      await vi.waitFor(() => expect(tree(uploads).filter((name) => !name.startsWith('.tmp')).length).toBe(2), { timeout: 10_000 });
      // ...when the server dies.
      await server.kill();
      await pending;
    } finally {
      await sql.run(UNLOCK_FILES[database]).catch(() => undefined);
      await sql.close();
      await server.stop();
    }

    server = await startReferenceServer(project, options);
    try {
      const stored = tree(uploads).filter((name) => !name.startsWith('.tmp'));
      expect(stored).toEqual([...before.keys()]);
      for (const [name, content] of before) expect(readFileSync(join(uploads, name), 'utf8')).toBe(content);
      const listed = (await (await fetch(`${server.url}/api/upload/files`)).json()) as { name: string }[];
      expect(listed.map((file) => file.name)).toEqual(['kept.txt']);
      expect(server.output()).toContain('deleted the files of uploads whose process was killed before their rows were written');
    } finally {
      await server.stop();
    }
  });
});

/** Holds the write lock of `files` from another connection, as a busy database would. */
const LOCK_FILES: Readonly<Record<Client, string>> = {
  sqlite: 'BEGIN IMMEDIATE',
  postgres: 'BEGIN; LOCK TABLE files IN EXCLUSIVE MODE',
  mysql: 'LOCK TABLES files WRITE',
};

const UNLOCK_FILES: Readonly<Record<Client, string>> = { sqlite: 'ROLLBACK', postgres: 'ROLLBACK', mysql: 'UNLOCK TABLES' };
