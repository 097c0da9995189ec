/**
 * The databases capi's contract describes. Every per-database part of the contract (column
 * types, operator SQL) is a `Record<DatabaseKind, ...>`, so adding a database is a compile error
 * in each table until its entry is written.
 */
export type DatabaseKind = 'sqlite' | 'postgres' | 'mysql';

export const DATABASE_KINDS: readonly DatabaseKind[] = ['sqlite', 'postgres', 'mysql'];
