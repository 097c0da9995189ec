/**
 * Files replaced inside a database transaction, made safe against the process being killed.
 *
 * An import with --force stores the archive's files over the project's before its transaction
 * commits, keeping the originals in its work folder to put them back if anything fails. A process
 * killed there (SIGKILL, the OOM killer, a power cut) never puts them back: its transaction
 * rolls back with the database, but the files would stay the archive's, and the next start would
 * sweep the work folder with the only copies.
 *
 * So, before the first file is stored, a journal goes into the work folder: where the upload
 * folder is and which names the change stores. It is removed once the transaction has committed.
 * A work folder that still has its journal belongs to a change that never committed: the sweep of
 * dead work folders (upload/storage.ts, at every start and at the next import) first undoes it —
 * each original is moved back from the folder of copies, each file the change added is removed —
 * and only then deletes the folder. Local provider only: a bucket's objects cannot be restored
 * from a synchronous start-up sweep.
 */
import { existsSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveInside } from './safety.ts';

const journalFile = 'placement-journal.json';

export interface PlacementJournal {
  /** The upload folder the files are stored in. */
  readonly root: string;
  /** Where the new files wait (their stored copies are hard links of them: same inode). */
  readonly stagedDir: string;
  /** Where the displaced originals are kept, under their stored names. */
  readonly backupDir: string;
  /** Every name the change stores. */
  readonly names: readonly string[];
}

/** Writes the journal (atomically: a rename) before anything is stored. */
export async function writeJournal(workDir: string, journal: PlacementJournal): Promise<void> {
  const path = join(workDir, journalFile);
  await writeFile(`${path}.tmp`, JSON.stringify(journal));
  await rename(`${path}.tmp`, path);
}

/** The change committed: the originals are no longer needed, nothing is to be undone. */
export async function removeJournal(workDir: string): Promise<void> {
  await unlink(join(workDir, journalFile)).catch(() => undefined);
}

/**
 * Undoes the uncommitted change a dead process's work folder records, if any: originals moved
 * back, added files removed. Returns how many files were restored or removed. Throws when it
 * cannot, so that the caller keeps the folder (and the copies in it).
 */
export function undoPlacementSync(workDir: string): number {
  const path = join(workDir, journalFile);
  if (!existsSync(path)) return 0;
  const journal = JSON.parse(readFileSync(path, 'utf8')) as PlacementJournal;
  const backups = new Set(existsSync(journal.backupDir) ? readdirSync(journal.backupDir) : []);
  let undone = 0;
  for (const name of journal.names) {
    const target = resolveInside(journal.root, name);
    if (backups.has(name)) {
      renameSync(resolveInside(journal.backupDir, name), target);
      undone++;
    } else if (sameFile(target, resolveInside(journal.stagedDir, name))) {
      unlinkSync(target);
      undone++;
    }
  }
  // Originals the change deleted rather than replaced (names it does not store).
  for (const name of backups) {
    if (journal.names.includes(name)) continue;
    renameSync(resolveInside(journal.backupDir, name), resolveInside(journal.root, name));
    undone++;
  }
  unlinkSync(path);
  return undone;
}

/** Whether both paths are one file (a stored name linked to its staged file), not a newer one under the name. */
function sameFile(a: string, b: string): boolean {
  try {
    const [x, y] = [statSync(a), statSync(b)];
    return x.ino === y.ino && x.dev === y.dev;
  } catch {
    return false;
  }
}
