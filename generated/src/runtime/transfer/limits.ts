/**
 * The budget of one import: how much an archive may make the import read, keep and write. An
 * archive is untrusted input (a few megabytes of gzip can unpack to gigabytes), so each limit is
 * checked as the archive streams, before what it bounds is held or written, and crossing one
 * refuses the import with a sentence naming the limit and how to raise it.
 *
 * One table: the CLI's flags, their environment variables, the defaults and the docs all come
 * from it.
 */

export interface ImportLimits {
  /** Longest JSON line (one row version, one link, one schema). */
  readonly maxLineBytes: number;
  /** Largest asset file (the project's upload `sizeLimit` when the CLI runs the import). */
  readonly maxFileBytes: number;
  /** Bytes of the whole archive once decompressed: every entry, headers included. */
  readonly maxTotalBytes: number;
  /** Entries of the archive (files; `tar` headers). */
  readonly maxEntries: number;
  /** JSON lines of the archive (schemas, rows, links, configuration items). */
  readonly maxLines: number;
}

export type ImportLimitName = keyof ImportLimits;

interface LimitSpec {
  readonly flag: string;
  readonly env: string;
  readonly default: number;
  /** What it bounds, for messages: "a line of 20000000 bytes is over the limit of the longest line". */
  readonly what: string;
}

const MiB = 1024 * 1024;

export const importLimitSpecs: Readonly<Record<ImportLimitName, LimitSpec>> = {
  maxLineBytes: { flag: '--max-line-bytes', env: 'CAPI_IMPORT_MAX_LINE_BYTES', default: 16 * MiB, what: 'the longest JSON line, in bytes' },
  // Strapi's (and capi's) default upload sizeLimit: a file the project would refuse as an upload.
  maxFileBytes: { flag: '--max-file-bytes', env: 'CAPI_IMPORT_MAX_FILE_BYTES', default: 200 * MiB, what: 'the largest asset file, in bytes' },
  maxTotalBytes: { flag: '--max-total-bytes', env: 'CAPI_IMPORT_MAX_TOTAL_BYTES', default: 64 * 1024 * MiB, what: 'the decompressed size of the whole archive, in bytes' },
  maxEntries: { flag: '--max-entries', env: 'CAPI_IMPORT_MAX_ENTRIES', default: 1_000_000, what: 'the number of entries (files) in the archive' },
  // The id map the link stage needs holds one entry per row: about 100 bytes, so ~1 GB at most.
  maxLines: { flag: '--max-lines', env: 'CAPI_IMPORT_MAX_LINES', default: 10_000_000, what: 'the number of JSON lines (rows, links, schemas, configuration items)' },
};

export const defaultImportLimits: ImportLimits = {
  maxLineBytes: importLimitSpecs.maxLineBytes.default,
  maxFileBytes: importLimitSpecs.maxFileBytes.default,
  maxTotalBytes: importLimitSpecs.maxTotalBytes.default,
  maxEntries: importLimitSpecs.maxEntries.default,
  maxLines: importLimitSpecs.maxLines.default,
};

/** A limit crossed: the import stops there. */
export class ImportLimitError extends Error {
  override readonly name = 'ImportLimitError';
  constructor(
    readonly limit: ImportLimitName,
    /** The limit's value in this import. */
    readonly max: number,
    where: string,
  ) {
    const spec = importLimitSpecs[limit];
    super(`${where}: over the import's limit on ${spec.what} (${max}); raise it with ${spec.flag} or ${spec.env} if the archive is trusted`);
  }
}

/** A limit value as given on the command line or in the environment: a whole number >= 1. */
export function parseLimit(name: ImportLimitName, text: string, source: string): number | Error {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(value) || value < 1) return new Error(`${source}: ${importLimitSpecs[name].flag} must be a whole number >= 1 (got ${JSON.stringify(text)})`);
  return value;
}
