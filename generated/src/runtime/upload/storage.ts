/**
 * The local upload folder, `<projectRoot>/public/uploads`, served at `/uploads`, and the work
 * folders under its `.tmp/` where uploads are received and formats made, whatever the provider
 * (on the same file system as the local provider's files, so storing one is one link or rename).
 *
 * A work folder is named after the process that owns it (`work-<host>-<pid>-<random>`), so that a
 * server starting up can tell the leftovers of a killed process from the folders of a live one
 * sharing the upload folder, and remove them before it serves anything.
 */
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import type { Queryable } from '../database.ts';
import { committedIds, forgetCommitted, readJournalSync, settlePlacementSync, type PlacementJournal } from './placement-journal.ts';
import { resolveInside } from './safety.ts';

/** The work folder's parent; a dot folder, so the static route never serves it. */
export const tmpFolderName = '.tmp';

/** Work folders older than this are leftovers, whoever made them (another host, an older naming). */
const staleWorkDirMs = 24 * 60 * 60 * 1000;

/** This machine's name as it can appear in a folder name. */
const host = hostname().replace(/[^A-Za-z0-9.]/g, '_') || 'host';
const ownedWorkDir = /^work-(.+)-(\d+)-[^-]+$/;

/** Who made a work folder, when its name says so. */
export function workDirOwner(name: string): { readonly host: string; readonly pid: number } | undefined {
  const match = ownedWorkDir.exec(name);
  return match === null ? undefined : { host: match[1] ?? '', pid: Number(match[2]) };
}

/** Whether a process of this machine is running: signal 0 checks without signalling. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return isCode(error, 'EPERM');
  }
}

export interface SweepOptions {
  readonly now?: number;
  /** When this process started (ms since the epoch): its own pid on older folders is a previous run's. */
  readonly startedAt?: number;
  readonly isRunning?: (pid: number) => boolean;
}

export interface WorkDir {
  readonly path: string;
  /** Removes the folder and whatever is still in it. Never throws. */
  remove(): Promise<void>;
}

export class UploadFolder {
  readonly root: string;
  readonly tmpRoot: string;

  private constructor(root: string) {
    this.root = resolve(root);
    this.tmpRoot = join(this.root, tmpFolderName);
  }

  /** Creates the folders if needed; synchronous because it runs once, while the app is built. */
  static openSync(root: string): UploadFolder {
    const folder = new UploadFolder(root);
    mkdirSync(folder.tmpRoot, { recursive: true });
    return folder;
  }

  /** The absolute path of a stored file; throws PathEscapeError for a name that is not one. */
  pathOf(fileName: string): string {
    return resolveInside(this.root, fileName);
  }

  async createWorkDir(): Promise<WorkDir> {
    await mkdir(this.tmpRoot, { recursive: true });
    const path = await mkdtemp(join(this.tmpRoot, `work-${host}-${process.pid}-`));
    return { path, remove: () => rm(path, { recursive: true, force: true }).catch(() => undefined) };
  }

  /**
   * Removes the work folders of processes that are gone: those of this machine whose process no
   * longer runs (or that carry this process's pid but predate it: a restarted container), and any
   * older than a day. A folder that holds a placement journal is a file change killed before it
   * finished: it is settled first (placement-journal.ts), forward or back as `db` says its
   * transaction went; without `db` it is kept. Run once at start-up, before the server listens,
   * so that no request can meet a leftover. Best effort: never throws. Returns the names removed.
   */
  async sweep(options: SweepOptions & { readonly db?: Queryable } = {}): Promise<string[]> {
    const dead = this.deadWorkDirs(options);
    const journals = new Map(dead.map((entry) => [entry, journalOf(join(this.tmpRoot, entry))] as const));
    const committed = await knownOutcomes(
      options.db,
      [...journals.values()].flatMap((journal) => (typeof journal === 'object' ? [journal.id] : [])),
    );
    const removed: string[] = [];
    const settled: string[] = [];
    for (const entry of dead) {
      const path = join(this.tmpRoot, entry);
      try {
        const journal = journals.get(entry);
        // A journal that cannot be read says nothing about what to undo: the folder and its copies stay.
        if (journal === 'unreadable') continue;
        if (journal !== undefined) {
          // Unknown (no database, or it did not answer): kept for a sweep that can tell.
          if (committed === undefined) continue;
          settlePlacementSync(path, journal, committed.has(journal.id));
          settled.push(journal.id);
        }
        rmSync(path, { recursive: true, force: true });
        removed.push(entry);
      } catch {
        // Another process may be removing it too.
      }
    }
    if (options.db !== undefined) await forgetCommitted(options.db, settled).catch(() => undefined);
    return removed;
  }

  /**
   * The work folders of processes that are gone (see sweep), as absolute paths: an upload's own
   * journal in one of them names the files it may have stored (UploadService.dropUncommitted).
   */
  leftoverWorkDirs(options: SweepOptions = {}): string[] {
    return this.deadWorkDirs(options).map((entry) => join(this.tmpRoot, entry));
  }

  /** The names of the work folders whose process is gone. */
  private deadWorkDirs(options: SweepOptions): string[] {
    const now = options.now ?? Date.now();
    const startedAt = options.startedAt ?? now - process.uptime() * 1000;
    const running = options.isRunning ?? isRunning;
    let entries: string[];
    try {
      entries = readdirSync(this.tmpRoot);
    } catch {
      return [];
    }
    return entries.filter((entry) => {
      try {
        const modified = statSync(join(this.tmpRoot, entry)).mtimeMs;
        const owner = workDirOwner(entry);
        const ours = owner !== undefined && owner.host === host;
        const ownerGone = ours && (owner.pid === process.pid ? modified < startedAt : !running(owner.pid));
        return ownerGone || now - modified > staleWorkDirMs;
      } catch {
        return false;
      }
    });
  }
}

/** A work folder's journal, if it has one. */
function journalOf(path: string): PlacementJournal | 'unreadable' | undefined {
  try {
    return readJournalSync(path);
  } catch {
    return 'unreadable';
  }
}

/** Which of the journals' changes committed; undefined when that cannot be known. */
async function knownOutcomes(db: Queryable | undefined, ids: readonly string[]): Promise<Set<string> | undefined> {
  if (ids.length === 0) return new Set();
  if (db === undefined) return undefined;
  return committedIds(db, ids).catch(() => undefined);
}

/** Whether a file-system error has this code. */
export function isCode(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
}
