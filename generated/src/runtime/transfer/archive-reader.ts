/**
 * Reads a Strapi data-transfer archive as a stream: a tar (gzipped or not: told by the gzip magic
 * bytes) of `metadata.json`, `schemas/`, `entities/`, `links/`, `configuration/` (JSON Lines
 * files) and `assets/uploads/` + `assets/metadata/`. Entries are handed over one at a time and the
 * parser waits until the current one is consumed, so memory stays bounded by the longest line,
 * whatever the size of the archive.
 *
 * A damaged archive is an ArchiveError, never a shorter archive: gzip's own checks (a cut stream,
 * a bad CRC, bytes after it) are node's zlib's, and the tar framing is walked block by block
 * before node-tar parses it, so that an archive cut between two entries (which ends without tar's
 * two empty end blocks) or followed by anything else is refused too. The same walk counts entries
 * and bytes against the import's limits before the parser buffers them.
 */
import { open } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { Header, Parser, type ReadEntry } from 'tar';
import { defaultImportLimits, ImportLimitError, type ImportLimits } from './limits.ts';

/** Something wrong with the archive itself: its file, its structure or one of its lines. */
export class ArchiveError extends Error {
  override readonly name = 'ArchiveError';
}

/** The stages of the archive, named as its top-level folders. */
export type JsonlStage = 'schemas' | 'entities' | 'links' | 'configuration';
export const jsonlStages: readonly JsonlStage[] = ['schemas', 'entities', 'links', 'configuration'];

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

const block = 512;

/**
 * Passes a tar stream through unchanged while walking its blocks: headers (whose sizes say how
 * many data blocks follow) up to the two empty blocks that end an archive. It refuses a stream
 * that stops before them or carries anything but zero padding after them, and counts entries and
 * bytes against the limits.
 */
class TarFraming extends Transform {
  #header = Buffer.alloc(0);
  /** Data (and padding) bytes of the current entry still to pass. */
  #skip = 0;
  #emptyBlocks = 0;
  #ended = false;
  #total = 0;
  #entries = 0;

  constructor(private readonly limits: ImportLimits) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      this.#total += chunk.length;
      if (this.#total > this.limits.maxTotalBytes) throw new ImportLimitError('maxTotalBytes', this.limits.maxTotalBytes, 'the archive');
      this.#walk(chunk);
      done(null, chunk);
    } catch (error) {
      done(error as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    done(
      this.#ended
        ? null
        : new ArchiveError(`the archive is cut short: it ends ${this.#skip > 0 || this.#header.length > 0 ? 'inside an entry' : "between two entries, without tar's end-of-archive blocks"}`),
    );
  }

  #walk(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.#ended) {
        // tar pads an archive to its record size with zeros: anything else was appended.
        if (chunk.subarray(at).some((byte) => byte !== 0)) throw new ArchiveError('the archive is damaged: bytes follow its end-of-archive blocks');
        return;
      }
      if (this.#skip > 0) {
        const n = Math.min(this.#skip, chunk.length - at);
        this.#skip -= n;
        at += n;
        continue;
      }
      const n = Math.min(block - this.#header.length, chunk.length - at);
      this.#header = Buffer.concat([this.#header, chunk.subarray(at, at + n)]);
      at += n;
      if (this.#header.length === block) this.#headerBlock(this.#header);
    }
  }

  #headerBlock(bytes: Buffer): void {
    this.#header = Buffer.alloc(0);
    if (bytes.every((byte) => byte === 0)) {
      this.#ended = ++this.#emptyBlocks === 2;
      return;
    }
    this.#emptyBlocks = 0;
    const header = new Header(bytes);
    if (!header.cksumValid) throw new ArchiveError('the archive is damaged: a tar header fails its checksum');
    if (++this.#entries > this.limits.maxEntries) throw new ImportLimitError('maxEntries', this.limits.maxEntries, 'the archive');
    const size = header.size ?? 0;
    if (!Number.isSafeInteger(size) || size < 0) throw new ArchiveError('the archive is damaged: a tar header with an impossible size');
    this.#skip = Math.ceil(size / block) * block;
  }
}

/**
 * The archive's entries in order. The caller must consume or `resume()` each entry before asking
 * for the next one; the parser blocks until it does (backpressure), so nothing piles up. A
 * failure anywhere in the stream (a damaged archive, a limit crossed) ends the entry being read
 * with that error, and the iteration too.
 */
export async function* archiveEntries(path: string, limits: ImportLimits = defaultImportLimits): AsyncGenerator<ArchiveEntry> {
  const format = await checkArchiveFile(path);
  const queue: ReadEntry[] = [];
  let current: ReadEntry | undefined;
  let finished = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    wake?.();
    wake = undefined;
  };
  const fail = (error: unknown): void => {
    failure ??= error instanceof ArchiveError || error instanceof ImportLimitError ? error : new ArchiveError(`the archive is damaged: ${describe(error)}`);
    // The caller may be waiting on the entry's data, which will never come. (The listener keeps
    // an entry nobody reads from throwing the error instead.)
    if (current !== undefined && !current.emittedEnd) current.on('error', () => undefined).destroy(failure);
    notify();
  };
  const parser = new Parser({
    strict: true,
    noResume: true,
    onReadEntry: (entry: ReadEntry) => {
      queue.push(entry);
      notify();
    },
  });
  const stages = [createReadStream(path), ...(format === 'gzip' ? [createGunzip()] : []), new TarFraming(limits), parser];
  const done = pipeline(stages).then(
    () => {
      finished = true;
      notify();
    },
    (error: unknown) => {
      fail(error);
      finished = true;
      notify();
    },
  );
  try {
    for (;;) {
      if (failure !== undefined) throw failure;
      const entry = queue.shift();
      if (entry !== undefined) {
        current = entry;
        yield classify(entry, limits);
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

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // zlib's own words for a cut stream, a bad CRC and bytes after the stream.
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === undefined ? message : `${message} (${code})`;
}

function classify(entry: ReadEntry, limits: ImportLimits): ArchiveEntry {
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
  if (parts[0] === 'assets' && parts.length === 3 && parts[1] === 'uploads') {
    const size = entry.size ?? 0;
    // Refused at its header, before a byte of it is read or written.
    if (size > limits.maxFileBytes) throw new ImportLimitError('maxFileBytes', limits.maxFileBytes, path);
    return { kind: 'asset', name: parts[2] ?? '', path, size, entry };
  }
  if (parts[0] === 'assets' && parts.length === 3 && parts[1] === 'metadata' && (parts[2] ?? '').endsWith('.json')) {
    return { kind: 'asset-metadata', name: (parts[2] ?? '').slice(0, -'.json'.length), path, entry };
  }
  return { kind: 'other', path, entry };
}

/** A line of an entry: its bytes (without the newline) and where it is. */
export interface RawLine {
  readonly bytes: Buffer;
  readonly where: string;
}

/**
 * Objects and arrays nested deeper than this in one line are refused: a row's values, its
 * components and their JSON attributes stay far below it (a request body allows 100 levels), and
 * the walks that follow (checks, `JSON.stringify` on the way to the database) would overflow the
 * stack on the tens of thousands of levels that `JSON.parse` itself accepts.
 */
export const maxLineDepth = 128;

/**
 * The non-empty lines of a JSON Lines entry, each at most `maxLineBytes` long (more is an
 * ArchiveError naming the file and line, raised before the line is held whole).
 */
export async function* rawLines(entry: ReadEntry, path: string, maxLineBytes: number): AsyncGenerator<RawLine> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let lineNumber = 0;
  const line = (bytes: Buffer): RawLine | undefined => {
    lineNumber++;
    return bytes.every(isSpace) ? undefined : { bytes, where: `${path}:${lineNumber}` };
  };
  for await (const chunk of entry as AsyncIterable<Buffer>) {
    let start = 0;
    for (let newline = chunk.indexOf(10, start); newline !== -1; newline = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, newline);
      if (pendingBytes + piece.length > maxLineBytes) throw tooLong(path, lineNumber + 1, maxLineBytes);
      const found = line(pending.length === 0 ? piece : Buffer.concat([...pending, piece]));
      pending = [];
      pendingBytes = 0;
      start = newline + 1;
      if (found !== undefined) yield found;
    }
    const rest = chunk.subarray(start);
    if (rest.length > 0) {
      pendingBytes += rest.length;
      if (pendingBytes > maxLineBytes) throw tooLong(path, lineNumber + 1, maxLineBytes);
      pending.push(Buffer.from(rest));
    }
  }
  if (pending.length > 0) {
    const found = line(Buffer.concat(pending));
    if (found !== undefined) yield found;
  }
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The JSON value of one line. A line that is not UTF-8 (decoding would replace bytes silently),
 * is not JSON, nests too deep or has a `__proto__` key (which would become an object's prototype
 * wherever the value is copied by assignment) is an ArchiveError naming the file and line.
 */
export function parseLine(bytes: Buffer, where: string): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new ArchiveError(`${where}: not UTF-8 text (the archive is damaged or was not written by strapi export)`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new ArchiveError(`${where}: not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const problem = shapeProblem(value);
  if (problem !== undefined) throw new ArchiveError(`${where}: ${problem}`);
  return value;
}

/** What makes a parsed line unsafe to walk, measured without recursion. */
function shapeProblem(value: unknown): string | undefined {
  const stack: { readonly item: unknown; readonly depth: number }[] = [{ item: value, depth: 0 }];
  while (stack.length > 0) {
    const { item, depth } = stack.pop() as { item: unknown; depth: number };
    if (typeof item !== 'object' || item === null) continue;
    if (depth + 1 > maxLineDepth) return `objects and arrays nested deeper than ${maxLineDepth} levels`;
    if (Array.isArray(item)) {
      for (const inner of item as unknown[]) if (typeof inner === 'object' && inner !== null) stack.push({ item: inner, depth: depth + 1 });
      continue;
    }
    for (const key of Object.keys(item)) {
      if (key === '__proto__') return 'refusing the key "__proto__" (it would replace an object\'s prototype, not hold a value)';
      const inner = (item as Record<string, unknown>)[key];
      if (typeof inner === 'object' && inner !== null) stack.push({ item: inner, depth: depth + 1 });
    }
  }
  return undefined;
}

function tooLong(path: string, line: number, max: number): ImportLimitError {
  return new ImportLimitError('maxLineBytes', max, `${path}:${line}`);
}

/** The whole content of a small JSON entry (metadata.json), bounded, checked as a line is. */
export async function readJsonEntry(entry: ReadEntry, path: string, maxBytes = 1024 * 1024): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of entry as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new ArchiveError(`${path}: larger than ${maxBytes} bytes (strapi export writes a few lines)`);
    chunks.push(chunk);
  }
  return parseLine(Buffer.concat(chunks), path);
}
