/**
 * What an import found and did: counts per type, every problem (each said once, with how often it
 * occurred and where first), and notes about what was deliberately left out.
 */

export type TransferStage = 'check' | 'entities' | 'links' | 'assets' | 'export';

/** Told as a stage advances; `total` is known when a previous pass counted the stage. */
export type ProgressListener = (event: { readonly stage: TransferStage; readonly done: number; readonly total?: number; readonly finished?: boolean }) => void;

/**
 * `error`: the archive cannot be imported as is (a bad line, a dangling reference, a value the
 * column cannot hold, an unsafe name, a non-empty project). `difference`: the archive and the
 * project describe different types; importing would leave data out, which `--allow-missing`
 * accepts.
 */
export type ProblemKind = 'error' | 'difference';

export interface Problem {
  readonly kind: ProblemKind;
  readonly message: string;
  /** Where it first occurred (`entities/entities_00001.jsonl:12`), when it is about a line. */
  readonly where?: string;
  readonly count: number;
}

export interface ImportCounts {
  /** Rows per type (content types, files, users, roles), as in the archive. */
  readonly entities: Record<string, number>;
  /** Component rows per component. */
  readonly components: Record<string, number>;
  /** Links per `<type>.<field>` (relations and media). */
  readonly links: Record<string, number>;
  readonly assets: number;
  readonly assetBytes: number;
  /** Lines left out on purpose, per type, with why. */
  readonly skipped: Record<string, { count: number; reason: string }>;
}

export interface ImportReport {
  readonly strapiVersion?: string;
  readonly counts: ImportCounts;
  readonly problems: readonly Problem[];
  readonly notes: readonly string[];
  /** Whether the data was written (false for a dry run or a refused import). */
  readonly written: boolean;
  readonly durationMs: number;
}

/** Distinct problems listed one by one; past this, the rest are counted in one entry per kind. */
export const maxDistinctProblems = 1_000;

/**
 * Collects problems, one entry per distinct message, so a bad column in 100,000 rows is one line.
 * Messages name what the archive names (row ids, types), so their number is bounded: an archive
 * of distinct bad lines cannot grow the list without end.
 */
export class ProblemList {
  readonly #byMessage = new Map<string, { kind: ProblemKind; message: string; where?: string; count: number }>();

  add(kind: ProblemKind, message: string, where?: string): void {
    const key = this.#byMessage.has(message) || this.#byMessage.size < maxDistinctProblems ? message : `more ${kind === 'error' ? 'errors' : 'differences'}, not listed one by one`;
    const known = this.#byMessage.get(key);
    if (known !== undefined) known.count++;
    else this.#byMessage.set(key, { kind, message: key, count: 1, ...(where === undefined ? {} : { where }) });
  }

  list(): Problem[] {
    return [...this.#byMessage.values()];
  }

  /** Whether any problem stops the import (differences only when they are not accepted). */
  blocking(allowDifferences: boolean): boolean {
    for (const problem of this.#byMessage.values()) if (problem.kind === 'error' || !allowDifferences) return true;
    return false;
  }
}

export function emptyCounts(): ImportCounts {
  return { entities: {}, components: {}, links: {}, assets: 0, assetBytes: 0, skipped: {} };
}

export function increment(record: Record<string, number>, key: string, by = 1): void {
  record[key] = (record[key] ?? 0) + by;
}

/** The report as lines of text, for the CLI. */
export function formatReport(report: ImportReport): string[] {
  const lines: string[] = [];
  const table = (title: string, record: Record<string, number>): void => {
    const keys = Object.keys(record).sort();
    if (keys.length === 0) return;
    lines.push(`${title}:`);
    for (const key of keys) lines.push(`  ${key.padEnd(48)} ${String(record[key]).padStart(8)}`);
  };
  table('entities', report.counts.entities);
  table('components', report.counts.components);
  table('links', report.counts.links);
  lines.push(`assets: ${report.counts.assets} files, ${report.counts.assetBytes} bytes`);
  const skipped = Object.entries(report.counts.skipped).sort(([a], [b]) => a.localeCompare(b));
  if (skipped.length > 0) {
    lines.push('not imported:');
    for (const [uid, { count, reason }] of skipped) lines.push(`  ${uid} (${count}): ${reason}`);
  }
  for (const note of report.notes) lines.push(`note: ${note}`);
  for (const problem of report.problems) {
    const times = problem.count > 1 ? ` (${problem.count} times)` : '';
    lines.push(`${problem.kind}: ${problem.where === undefined ? '' : `${problem.where}: `}${problem.message}${times}`);
  }
  return lines;
}
