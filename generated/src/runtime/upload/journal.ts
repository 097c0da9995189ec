/**
 * What an upload is about to store, written into its work folder before the first object is
 * stored. The objects are stored before the transaction that inserts their rows (service.ts: an S3
 * upload must not hold the database's write lock), so a process killed between the two leaves
 * stored objects no row names. Its work folder outlives it (storage.ts), and with it this
 * journal: the next server to start reads it, before it listens, and deletes every object it
 * names that no `files` row refers to. Objects whose rows committed are kept, so a process killed
 * after its commit loses nothing.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Queryable } from '../database.ts';
import { storedNames, type UploadProvider } from './provider.ts';
import { findFileRowsByHash } from './repository.ts';
import { serializeFile } from './serialize.ts';

const JOURNAL_FILE = 'stored.json';

/** The objects of one upload, by the hash of the file they belong to (its row's `hash`). */
export interface StoreJournal {
  readonly hashes: readonly string[];
  readonly names: readonly string[];
}

export function writeJournal(workDir: string, journal: StoreJournal): Promise<void> {
  return writeFile(join(workDir, JOURNAL_FILE), JSON.stringify(journal));
}

/** The journal of a work folder, or undefined when it has none (the upload had not stored anything) or it is unreadable. */
export function readJournal(workDir: string): StoreJournal | undefined {
  try {
    const parsed = JSON.parse(readFileSync(join(workDir, JOURNAL_FILE), 'utf8')) as Partial<StoreJournal>;
    const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');
    return strings(parsed.hashes) && strings(parsed.names) ? { hashes: parsed.hashes, names: parsed.names } : undefined;
  } catch {
    return undefined;
  }
}

/** Deletes the objects of `journal` that no row refers to; returns their names. */
export async function dropUncommitted(db: Queryable, provider: UploadProvider, journal: StoreJournal): Promise<string[]> {
  if (journal.names.length === 0) return [];
  const rows = await findFileRowsByHash(db, journal.hashes);
  const kept = new Set(rows.flatMap((row) => storedNames(provider, serializeFile(row)).names));
  const dropped = journal.names.filter((name) => !kept.has(name));
  for (const name of dropped) await provider.delete(name);
  return dropped;
}
