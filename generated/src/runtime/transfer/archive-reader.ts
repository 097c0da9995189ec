/**
 * Reads a Strapi data-transfer archive as a stream: a tar (gzipped or not: the tar parser tells by
 * the gzip magic bytes) of `metadata.json`, `schemas/`, `entities/`, `links/`, `configuration/`
 * (JSON Lines files) and `assets/uploads/` + `assets/metadata/`. Entries are handed over one at a
 * time and the parser waits until the current one is consumed, so memory stays bounded by the
 * longest line, whatever the size of the archive.
 */
import { open } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Parser, type ReadEntry } from 'tar';

/** Something wrong with the archive itself: its file, its structure or one of its lines. */
export class ArchiveError extends Error {
  override readonly name = 'ArchiveError';
}

/** Longest JSON line accepted (a line is one row version or one link): more is a hostile archive. */
export const defaultMaxLineBytes = 64 * 1024 * 1024;

/** The stages of the archive, named as its top-level folders. */
export type JsonlStage = 'schemas' | 'entities' | 'links' | 'configuration';
const jsonlStages: readonly JsonlStage[] = ['schemas', 'entities', 'links', 'configuration'];

/** One entry of the archive, classified by where it sits. */
export type ArchiveEntry =
  | { readonly kind: 'jsonl'; readonly stage: JsonlStage; readonly path: string; readonly entry: ReadEntry }
  | { readonly kind: 'asset'; readonly name: string; readonly path: string; readonly size: number; readonly entry: ReadEntry }
  | { readonly kind: 'asset-metadata'; readonly name: string; readonly path: string; readonly entry: ReadEntry }
  | { readonly kind: 'metadata'; readonly path: string; readonly entry: ReadEntry }
  | { readonly kind: 'other'; readonly path: string; readonly entry: ReadEntry };

const gzipMagic = [0x1f, 0x8b];

/**
 * Checks that the file is a tar or a gzipped tar before anything is parsed, so that an encrypted
 * export or another file gets a sentence rather than a parser's complaint.
 */
export async function checkArchiveFile(path: string): Promise<'gzip' | 'tar'> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new ArchiveError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    const head = Buffer.alloc(512);
    const { bytesRead } = await handle.read(head, 0, 512, 0);
    if (bytesRead >= 2 && head[0] === gzipMagic[0] && head[1] === gzipMagic[1]) return 'gzip';
    if (bytesRead === 512 && head.subarray(257, 262).toString('latin1') === 'ustar') return 'tar';
    throw new ArchiveError(`${path} is neither a tar nor a gzipped tar archive (an encrypted export? run \`strapi export --no-encrypt\`)`);
  } finally {
    await handle.close();
  }
}

/**
 * The archive's entries in order. The caller must consume or `resume()` each entry before asking
 * for the next one; the parser blocks until it does (backpressure), so nothing piles up.
 */
export async function* archiveEntries(path: string): AsyncGenerator<ArchiveEntry> {
  await checkArchiveFile(path);
  const queue: ReadEntry[] = [];
  let finished = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    wake?.();
    wake = undefined;
  };
  const parser = new Parser({
    strict: true,
    noResume: true,
    onReadEntry: (entry: ReadEntry) => {
      queue.push(entry);
      notify();
    },
  });
  parser.on('warn', (code: string, message: string | Error) => {
    failure ??= new ArchiveError(`the archive is damaged: ${typeof message === 'string' ? message : message.message} (${code})`);
    notify();
  });
  const done = pipeline(createReadStream(path), parser).then(
    () => {
      finished = true;
      notify();
    },
    (error: unknown) => {
      failure ??= error instanceof ArchiveError ? error : new ArchiveError(`the archive is damaged: ${error instanceof Error ? error.message : String(error)}`);
      finished = true;
      notify();
    },
  );
  try {
    for (;;) {
      if (failure !== undefined) throw failure;
      const entry = queue.shift();
      if (entry !== undefined) {
        yield classify(entry);
        continue;
      }
      if (finished) break;
      await new Promise<void>((resolve) => (wake = resolve));
    }
    await done;
    if (failure !== undefined) throw failure;
  } finally {
    // An early stop (an error in the caller): release the parser so the file closes.
    for (const entry of queue) entry.resume();
    if (!finished) parser.abort(new Error('stopped'));
    await done.catch(() => undefined);
  }
}

function classify(entry: ReadEntry): ArchiveEntry {
  const path = entry.path.replace(/^\.\//, '');
  // Never followed anywhere, but a name climbing out of the archive says it was made to attack.
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.split(/[/\\]/).includes('..')) {
    throw new ArchiveError(`refusing the archive entry ${JSON.stringify(path)}: its path leaves the archive`);
  }
  if (entry.type !== 'File' && entry.type !== 'OldFile') return { kind: 'other', path, entry };
  const parts = path.split('/');
  if (parts.length === 1 && parts[0] === 'metadata.json') return { kind: 'metadata', path, entry };
  const stage = jsonlStages.find((s) => s === parts[0]);
  if (stage !== undefined && parts.length === 2 && (parts[1] ?? '').endsWith('.jsonl')) return { kind: 'jsonl', stage, path, entry };
  if (parts[0] === 'assets' && parts.length === 3 && parts[1] === 'uploads') return { kind: 'asset', name: parts[2] ?? '', path, size: entry.size ?? 0, entry };
  if (parts[0] === 'assets' && parts.length === 3 && parts[1] === 'metadata' && (parts[2] ?? '').endsWith('.json')) {
    return { kind: 'asset-metadata', name: (parts[2] ?? '').slice(0, -'.json'.length), path, entry };
  }
  return { kind: 'other', path, entry };
}

/** One parsed line of a JSON Lines entry, with where it came from for messages. */
export interface JsonLine {
  readonly value: unknown;
  /** `entities/entities_00001.jsonl:12` */
  readonly where: string;
}

/**
 * The JSON values of a JSON Lines entry, one per non-empty line. A line longer than
 * `maxLineBytes` or that is not JSON is an ArchiveError naming the file and line.
 */
export async function* jsonLines(entry: ReadEntry, path: string, maxLineBytes = defaultMaxLineBytes): AsyncGenerator<JsonLine> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNumber = 0;
  const parse = (bytes: Buffer): JsonLine | undefined => {
    lineNumber++;
    const text = bytes.toString('utf8').trim();
    if (text === '') return undefined;
    const where = `${path}:${lineNumber}`;
    try {
      return { value: JSON.parse(text) as unknown, where };
    } catch (error) {
      throw new ArchiveError(`${where}: not JSON (${error instanceof Error ? error.message : String(error)})`);
    }
  };
  for await (const chunk of entry as AsyncIterable<Buffer>) {
    let start = 0;
    for (let newline = chunk.indexOf(10, start); newline !== -1; newline = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, newline);
      if (pendingBytes + piece.length > maxLineBytes) throw tooLong(path, lineNumber + 1, maxLineBytes);
      const line = parse(pending.length === 0 ? piece : Buffer.concat([...pending, piece]));
      pending = [];
      pendingBytes = 0;
      start = newline + 1;
      if (line !== undefined) yield line;
    }
    const rest = chunk.subarray(start);
    if (rest.length > 0) {
      pendingBytes += rest.length;
      if (pendingBytes > maxLineBytes) throw tooLong(path, lineNumber + 1, maxLineBytes);
      pending.push(Buffer.from(rest));
    }
  }
  if (pending.length > 0) {
    const line = parse(Buffer.concat(pending));
    if (line !== undefined) yield line;
  }
}

function tooLong(path: string, line: number, max: number): ArchiveError {
  return new ArchiveError(`${path}:${line}: line longer than ${Math.round(max / 1024 / 1024)} MB`);
}

/** The whole content of a small JSON entry (metadata), bounded. */
export async function readJsonEntry(entry: ReadEntry, path: string, maxBytes = 16 * 1024 * 1024): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of entry as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new ArchiveError(`${path}: larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch (error) {
    throw new ArchiveError(`${path}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}
