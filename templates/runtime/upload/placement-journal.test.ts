/**
 * The start-up sweep undoes a change whose process died before its transaction committed: the
 * files it replaced come back, the files it added go, whatever step it was killed at.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeJournal, writeJournal } from './placement-journal.ts';
import { LocalProvider } from './provider-local.ts';
import { UploadFolder, workDirOwner } from './storage.ts';
import { storeFiles } from './stored-files.ts';

const root = mkdtempSync(join(tmpdir(), 'capi-journal-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** An upload folder with two originals, and a change staged in a work folder of a process that is gone. */
async function killedChange(name: string, storedBeforeKill: number): Promise<{ folder: UploadFolder; uploads: string; workDir: string }> {
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
  await writeJournal(workDir, { root: folder.root, stagedDir: staged, backupDir: backups, names: ['a.png', 'c.png'] });
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
  return { folder, uploads, workDir };
}

describe('placement journal', () => {
  it.each([1, 2])('a change killed after %i stored file(s) is undone by the sweep', async (storedBeforeKill) => {
    const { folder, uploads, workDir } = await killedChange(`killed-${storedBeforeKill}`, storedBeforeKill);
    expect(readFileSync(join(uploads, 'a.png'), 'utf8')).toBe('new a.png');
    expect(existsSync(join(uploads, 'b.png'))).toBe(false);
    expect(folder.sweepSync({ isRunning: () => false })).toContain(basename(workDir));
    expect(readdirSync(uploads).sort()).toEqual(['.tmp', 'a.png', 'b.png'].sort());
    expect(readFileSync(join(uploads, 'a.png'), 'utf8')).toBe('original a');
    expect(readFileSync(join(uploads, 'b.png'), 'utf8')).toBe('original b');
    expect(existsSync(workDir)).toBe(false);
  });

  it('a committed change (its journal removed) is left as it is', async () => {
    const uploads = join(root, 'committed');
    const folder = UploadFolder.openSync(uploads);
    writeFileSync(join(uploads, 'a.png'), 'new a.png');
    const workDir = join(folder.tmpRoot, `work-${workDirOwner(basename((await folder.createWorkDir()).path))?.host ?? ''}-4000001-done`);
    mkdirSync(join(workDir, 'backups'), { recursive: true });
    writeFileSync(join(workDir, 'backups', 'a.png'), 'original a');
    await writeJournal(workDir, { root: folder.root, stagedDir: join(workDir, 'staged'), backupDir: join(workDir, 'backups'), names: ['a.png'] });
    await removeJournal(workDir);
    folder.sweepSync({ isRunning: () => false });
    expect(readFileSync(join(uploads, 'a.png'), 'utf8')).toBe('new a.png');
    expect(existsSync(workDir)).toBe(false);
  });
});
