/**
 * Writes a tar archive as a stream, optionally gzipped: each entry is a header (with a PAX
 * extended header for long names), its bytes and padding to 512 bytes. Entries must know their
 * size up front, so JSON Lines are written in parts of bounded size (`entities_00001.jsonl`,
 * `entities_00002.jsonl`, ...), as Strapi itself splits them; memory stays bounded by one part.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { Header, Pax } from 'tar';

const block = 512;
/** A JSON Lines part is closed when it reaches this size. */
export const defaultPartBytes = 8 * 1024 * 1024;

export class ArchiveWriter {
  readonly #out = new PassThrough();
  readonly #done: Promise<void>;
  readonly #mtime = new Date();

  constructor(file: string, compress: boolean) {
    const sink = createWriteStream(file);
    this.#done = compress ? pipeline(this.#out, createGzip(), sink) : pipeline(this.#out, sink);
    // Surfaced by finish(); without a listener here a failed write would be an unhandled rejection.
    this.#done.catch(() => undefined);
  }

  async #write(chunk: Buffer): Promise<void> {
    if (!this.#out.write(chunk)) await new Promise<void>((resolve) => this.#out.once('drain', resolve));
  }

  async #header(path: string, size: number): Promise<void> {
    const data = { path, size, mode: 0o644, uid: 0, gid: 0, mtime: this.#mtime, type: 'File' as const };
    if (Buffer.byteLength(path) >= 100) await this.#write(new Pax(data).encode());
    const header = new Header({ ...data, path: Buffer.byteLength(path) >= 100 ? path.slice(-99) : path });
    const buffer = Buffer.alloc(block);
    header.encode(buffer, 0);
    await this.#write(buffer);
  }

  async #pad(size: number): Promise<void> {
    const rest = size % block;
    if (rest !== 0) await this.#write(Buffer.alloc(block - rest));
  }

  /** An entry whose bytes are in memory. */
  async file(path: string, content: Buffer): Promise<void> {
    await this.#header(path, content.length);
    await this.#write(content);
    await this.#pad(content.length);
  }

  /** An entry streamed from disk; `size` must be the file's size. */
  async fromDisk(path: string, source: string, size: number): Promise<void> {
    await this.#header(path, size);
    let written = 0;
    for await (const chunk of createReadStream(source) as Readable & AsyncIterable<Buffer>) {
      written += chunk.length;
      if (written > size) throw new Error(`${source} grew while it was exported`);
      await this.#write(chunk);
    }
    if (written !== size) throw new Error(`${source} changed size while it was exported`);
    await this.#pad(size);
  }

  /** A writer of JSON Lines into `<stage>/<stage>_00001.jsonl`, `..._00002.jsonl`, ... */
  lines(stage: string, partBytes?: number): JsonlWriter {
    return new JsonlWriter(this, stage, partBytes ?? defaultPartBytes);
  }

  /** Writes the end-of-archive blocks and waits until everything is on disk. */
  async finish(): Promise<void> {
    await this.#write(Buffer.alloc(block * 2));
    this.#out.end();
    await this.#done;
  }

  /** Stops after a failure: closes the file (the caller removes it). */
  async abort(): Promise<void> {
    this.#out.end();
    await this.#done.catch(() => undefined);
  }
}

export class JsonlWriter {
  #buffer: Buffer[] = [];
  #size = 0;
  #part = 0;
  count = 0;

  constructor(
    private readonly archive: ArchiveWriter,
    private readonly stage: string,
    private readonly partBytes: number,
  ) {}

  async write(value: unknown): Promise<void> {
    const line = Buffer.from(`${JSON.stringify(value)}\n`);
    this.#buffer.push(line);
    this.#size += line.length;
    this.count++;
    if (this.#size >= this.partBytes) await this.#flush();
  }

  async #flush(): Promise<void> {
    this.#part++;
    const name = `${this.stage}/${this.stage}_${String(this.#part).padStart(5, '0')}.jsonl`;
    const content = Buffer.concat(this.#buffer);
    this.#buffer = [];
    this.#size = 0;
    await this.archive.file(name, content);
  }

  /** Writes the last part (an empty first part when there was nothing, so the stage is there). */
  async close(): Promise<void> {
    if (this.#size > 0 || this.#part === 0) await this.#flush();
  }
}
