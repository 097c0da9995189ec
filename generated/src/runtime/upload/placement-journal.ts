/**
 * Files replaced inside a database transaction, made safe against the process being killed.
 *
 * An import with --force stores the archive's files over the project's before its transaction
 * commits, keeping the originals in its work folder to put them back if anything fails. A process
 * killed there (SIGKILL, the OOM killer, a power cut) never puts them back: its transaction
 * rolls back with the database, but the files would stay the archive's, and the next start would
 * sweep the work folder with the only copies.
 *
 * So, before the first file is stored, a journal goes into the work folder: its id, where the
 * upload folder is and which names the change stores; and inside the same transaction a row keyed
 * by that id goes into `capi_committed_changes`. The journal is removed once the transaction has
 * committed, then the row. A work folder that still has its journal belongs to a change killed
 * before that: whether the row exists says whether its transaction committed (the row commits or
 * rolls back with the change). The sweep of dead work folders (upload/storage.ts, at every start
 * and at the next import) settles it: committed, the new files are kept (the copies of the
 * originals go with the folder); not committed, each original is moved back and each file the
 * change added removed. Then the row and the folder go. Local provider only: a bucket's objects
 * are not restored after a kill.
 */
import { existsSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Queryable } from '../database.ts';
import { quote } from '../engine/sql.ts';
import { resolveInside } from './safety.ts';

const journalFile = 'placement-journal.json';

/** Rows of changes that committed while their journal may still be on disk (generator/emit/prisma.ts creates it). */
export const COMMITTED_CHANGES_TABLE = 'capi_committed_changes';

export interface PlacementJournal {
  /** The change's key in COMMITTED_CHANGES_TABLE. */
  readonly id: string;
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

/** Records, inside the change's transaction, that it committed: the row exists only if the transaction did. */
export async function markCommitted(tx: Queryable, id: string): Promise<void> {
  await tx.execute(`INSERT INTO ${quote(COMMITTED_CHANGES_TABLE)} (id) VALUES (?)`, [id]);
}

/** Which of `ids` committed. */
export async function committedIds(db: Queryable, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.query<{ id: string }>(`SELECT id FROM ${quote(COMMITTED_CHANGES_TABLE)} WHERE id IN (${ids.map(() => '?').join(', ')})`, ids);
  return new Set(rows.map((row) => row.id));
}

/** Drops the rows of changes whose journals are gone: nothing will ask about them again. */
export async function forgetCommitted(db: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await db.execute(`DELETE FROM ${quote(COMMITTED_CHANGES_TABLE)} WHERE id IN (${ids.map(() => '?').join(', ')})`, ids);
}

/** The journal a work folder holds: there when its change was killed before the journal's removal. */
export function readJournalSync(workDir: string): PlacementJournal | undefined {
  const path = join(workDir, journalFile);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as PlacementJournal) : undefined;
}

/**
 * Finishes the change a dead process's journal records: a committed one is rolled forward (the
 * new files stay; the copies of the originals go with the work folder), any other is undone. The
 * journal is removed last. Returns how many files were restored or removed. Throws when it
 * cannot, so that the caller keeps the folder (and the copies in it).
 */
export function settlePlacementSync(workDir: string, journal: PlacementJournal, committed: boolean): number {
  const undone = committed ? 0 : undoPlacementSync(journal);
  unlinkSync(join(workDir, journalFile));
  return undone;
}

/** Originals moved back, added files removed. */
function undoPlacementSync(journal: PlacementJournal): number {
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
