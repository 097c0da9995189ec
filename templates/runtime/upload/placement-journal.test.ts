/**
 * The start-up sweep settles a change whose process died before its journal was removed: one
 * whose transaction did not commit (no row in capi_committed_changes) is undone, the files it
 * replaced back and the files it added gone, whatever step it was killed at; one that committed
 * keeps its new files. Without a database to ask, the change is left for a sweep that can tell.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../database.ts';
import { COMMITTED_CHANGES_TABLE, markCommitted, removeJournal, writeJournal } from './placement-journal.ts';
import { LocalProvider } from './provider-local.ts';
import { UploadFolder, workDirOwner } from './storage.ts';
import { storeFiles } from './stored-files.ts';

const root = mkdtempSync(join(tmpdir(), 'capi-journal-'));
let db: Database;
beforeAll(async () => {
  db = await openDatabase({ client: 'sqlite', filename: join(root, 'test.db'), label: 'test.db' });
  await db.exec(`CREATE TABLE ${COMMITTED_CHANGES_TABLE} (id VARCHAR(255) PRIMARY KEY)`);
});
afterAll(async () => {
  await db.close();
  rmSync(root, { recursive: true, force: true });
});

async function markers(): Promise<string[]> {
  return (await db.query<{ id: string }>(`SELECT id FROM ${COMMITTED_CHANGES_TABLE}`)).map((row) => row.id);
}

/** An upload folder with two originals, and a change staged in a work folder of a process that is gone. */
async function killedChange(name: string, storedBeforeKill: number): Promise<{ folder: UploadFolder; uploads: string; workDir: string; id: string }> {
  const uploads = join(root, name);
  const folder = UploadFolder.openSync(uploads);
  writeFileSync(join(uploads, 'a.png'), 'original a');
  writeFileSync(join(uploads, 'b.png'), 'original b');
  const host = workDirOwner(basename((await folder.createWorkDir()).path))?.host ?? '';
  const workDir = join(folder.tmpRoot, `work-${host}-4000001-dead`);
  const [staged, backups] = [join(workDir, 'staged'), join(workDir, 'backups')];
  mkdirSync(staged, { recursive: true });
  mkdirSync(backups);
  for (const file of ['a.png', 'c.png']) writeFileSync(join(staged, file), `new ${file}`);
  await writeJournal(workDir, { id: name, root: folder.root, stagedDir: staged, backupDir: backups, names: ['a.png', 'c.png'] });
  // The change displaces a and b (b is dropped) and stores a and c; it stops for good after
  // `storedBeforeKill` files, as a killed process would (no undo runs).
  await new Promise<void>((killed) => {
    let stored = 0;
    void storeFiles(
      new LocalProvider(folder),
      ['a.png', 'c.png'].map((file) => ({ stagedPath: join(staged, file), fileName: file })),
      { names: ['a.png', 'b.png'], backupDir: backups },
      {
        afterStore: () => {
          if (++stored < storedBeforeKill) return Promise.resolve();
          killed();
          return new Promise<never>(() => undefined);
        },
      },
    );
  });
  return { folder, uploads, workDir, id: name };
}

describe('placement journal', () => {
  it.each([1, 2])('a change killed after %i stored file(s), uncommitted, is undone by the sweep', async (storedBeforeKill) => {
    const { folder, uploads, workDir } = await killedChange(`killed-${storedBeforeKill}`, storedBeforeKill);
    expect(readFileSync(join(uploads, 'a.png'), 'utf8')).toBe('new a.png');
    expect(existsSync(join(uploads, 'b.png'))).toBe(false);
    expect(await folder.sweep({ db, isRunning: () => false })).toContain(basename(workDir));
    expect(readdirSync(uploads).sort()).toEqual(['.tmp', 'a.png', 'b.png'].sort());
    expect(readFileSync(join(uploads, 'a.png'), 'utf8')).toBe('original a');
    expect(readFileSync(join(uploads, 'b.png'), 'utf8')).toBe('original b');
    expect(existsSync(workDir)).toBe(false);
  });

  it('a change killed after its commit, before its journal was removed, keeps its new files; its row goes', async () => {
    const { folder, uploads, workDir, id } = await killedChange('committed-journal-left', 2);
    await markCommitted(db, id);
    expect(await folder.sweep({ db, isRunning: () => false })).toContain(basename(workDir));
    expect(readdirSync(uploads).sort()).toEqual(['.tmp', 'a.png', 'c.png'].sort());
    expect(readFileSync(join(uploads, 'a.png'), 'utf8')).toBe('new a.png');
    expect(readFileSync(join(uploads, 'c.png'), 'utf8')).toBe('new c.png');
    expect(existsSync(workDir)).toBe(false);
    expect(await markers()).not.toContain(id);
  });

  it('without a database to ask, a journaled change is left as it is, for a sweep that can tell', async () => {
    const { folder, uploads, workDir } = await killedChange('no-database', 1);
    expect(await folder.sweep({ isRunning: () => false })).not.toContain(basename(workDir));
    expect(readFileSync(join(uploads, 'a.png'), 'utf8')).toBe('new a.png');
    expect(existsSync(join(workDir, 'placement-journal.json'))).toBe(true);
    await folder.sweep({ db, isRunning: () => false });
    expect(readFileSync(join(uploads, 'a.png'), 'utf8')).toBe('original a');
  });

  it('a committed change (its journal removed) is left as it is', async () => {
    const uploads = join(root, 'committed');
    const folder = UploadFolder.openSync(uploads);
    writeFileSync(join(uploads, 'a.png'), 'new a.png');
    const workDir = join(folder.tmpRoot, `work-${workDirOwner(basename((await folder.createWorkDir()).path))?.host ?? ''}-4000001-done`);
    mkdirSync(join(workDir, 'backups'), { recursive: true });
    writeFileSync(join(workDir, 'backups', 'a.png'), 'original a');
    await writeJournal(workDir, { id: 'done', root: folder.root, stagedDir: join(workDir, 'staged'), backupDir: join(workDir, 'backups'), names: ['a.png'] });
    await removeJournal(workDir);
    await folder.sweep({ db, isRunning: () => false });
    expect(readFileSync(join(uploads, 'a.png'), 'utf8')).toBe('new a.png');
    expect(existsSync(workDir)).toBe(false);
  });
});
