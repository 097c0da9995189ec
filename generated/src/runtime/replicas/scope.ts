/**
 * What the statements of one HTTP request share about where their reads may go, kept in
 * AsyncLocalStorage so that the engine, REST and GraphQL stay unaware of replicas: they run
 * statements on the `Database` they were given, and the replicated one (routing.ts) looks here.
 * Statements outside any request (start-up, migrations, webhook delivery, other background work)
 * find no scope and all go to the primary.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Replica } from './set.ts';

export interface ReadScope {
  /** Reads must see the primary's log up to here (the client's last write); undefined: any well replica will do. */
  readonly floor: bigint | undefined;
  /**
   * Where the request's reads go (undefined: the primary), chosen at its first read and kept, so
   * that the statements of one answer read one server; the primary from its first write on.
   */
  target: Promise<Replica | undefined> | undefined;
  /** Told the primary's log position (as the database writes it) after a write of the request committed. */
  readonly wrote: (position: string) => void;
}

export const readScopes = new AsyncLocalStorage<ReadScope>();
