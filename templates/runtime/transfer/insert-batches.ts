/**
 * Rows of an import inserted many at a time: one multi-row INSERT per table and column list, so
 * that a PostgreSQL import pays one round trip per hundred rows instead of one per row, and
 * SQLite one prepared statement per shape. Rows wait until their batch is full or until `flush`
 * (the import flushes before anything that must see them: links after their rows, a statement
 * that reads the table).
 */
import { describeDriverError, type Queryable, type SqlValue } from '../database.ts';
import { marks, quote } from '../engine/sql.ts';

/** A failure while writing, with the line it happened on. */
export class ImportError extends Error {
  override readonly name = 'ImportError';
}

interface Batch {
  readonly head: string;
  readonly tail: string;
  readonly width: number;
  readonly rows: SqlValue[][];
  /** The line of the batch's first row, for messages. */
  where: string;
}

export class InsertBatches {
  readonly #batches = new Map<string, Batch>();

  constructor(
    private readonly db: Queryable,
    private readonly maxRows = 100,
  ) {}

  /** Queues one row of `table`; `tail` is what follows the VALUES (an ON CONFLICT clause). */
  async add(where: string, table: string, columns: readonly string[], values: readonly SqlValue[], tail = ''): Promise<void> {
    const head = `INSERT INTO ${quote(table)} (${columns.map(quote).join(', ')}) VALUES `;
    const key = head + tail;
    let batch = this.#batches.get(key);
    if (batch === undefined) this.#batches.set(key, (batch = { head, tail, width: columns.length, rows: [], where }));
    if (batch.rows.length === 0) batch.where = where;
    batch.rows.push([...values]);
    if (batch.rows.length >= this.maxRows) await this.#flush(batch);
  }

  /** Inserts every queued row. */
  async flush(): Promise<void> {
    for (const batch of this.#batches.values()) await this.#flush(batch);
  }

  async #flush(batch: Batch): Promise<void> {
    if (batch.rows.length === 0) return;
    const rows = batch.rows.splice(0);
    const row = `(${marks(batch.width)})`;
    try {
      await this.db.execute(`${batch.head}${rows.map(() => row).join(', ')}${batch.tail}`, rows.flat());
    } catch (error) {
      const span = rows.length > 1 ? ` (or one of the ${rows.length - 1} rows after it)` : '';
      throw new ImportError(`${batch.where}${span}: ${describeDriverError(error)}`);
    }
  }
}
