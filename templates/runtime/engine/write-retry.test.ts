/**
 * A write that loses a lock race (a PostgreSQL deadlock or serialisation failure, SQLite's busy
 * timeout) is rolled back and run again, so the client sees the answer of a write that came
 * second, not a 500; any other failure is not retried.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import type { Database, Queryable } from '../database.ts';
import { createWriteEngine } from './write.ts';
import { dialects } from '../dialect/index.ts';

const i18n = { defaultLocale: 'en', locales: [{ code: 'en', name: 'English (en)' }] };
const T = 'api::tag.tag';

/** The database, except that its next `failures` transactions run and then fail with `error`. */
function failing(db: Database, failures: number, error: () => Error): { db: Database; attempts: () => number } {
  let attempts = 0;
  const wrapped = new Proxy(db, {
    get(target, key, receiver) {
      if (key !== 'transaction') return Reflect.get(target, key, receiver) as unknown;
      return async <T>(fn: (tx: Queryable) => Promise<T>): Promise<T> => {
        attempts++;
        const fail = attempts <= failures;
        return target.transaction(async (tx) => {
          const result = await fn(tx);
          if (fail) throw error();
          return result;
        });
      };
    },
  });
  return { db: wrapped, attempts: () => attempts };
}

const coded =
  (code: string): (() => Error) =>
  () =>
    Object.assign(new Error(`simulated ${code}`), { code });

/** The error codes that mean "lost a race" on each database. */
const lostRace = { sqlite: ['SQLITE_BUSY'], postgres: ['40P01', '40001'], mysql: ['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT'] } as const;

describe('Dialect.isRetryable', () => {
  it.each(clients)('on %s knows its deadlocks, serialisation failures and busy timeouts, nothing else', (client) => {
    const { isRetryable } = dialects[client];
    for (const code of lostRace[client]) expect(isRetryable(coded(code)())).toBe(true);
    const others = Object.values(lostRace)
      .flat()
      .filter((code) => !(lostRace[client] as readonly string[]).includes(code));
    for (const error of [coded('23505')(), coded('23503')(), ...others.map((code) => coded(code)()), new Error('x'), null, 'x']) expect(isRetryable(error)).toBe(false);
  });
});

describe.each(clients)('retried writes on %s', (client) => {
  let ctx: ExampleDatabase;
  beforeAll(async () => {
    ctx = await openExampleDatabase(client);
  });
  afterAll(async () => ctx?.close());

  const tagCount = async (name: string): Promise<number> => Number((await ctx.db.query<{ n: number }>('SELECT COUNT(*) AS n FROM tags WHERE name = ?', [name]))[0]!.n);

  it('runs a write that lost a lock race again, leaving one document', async () => {
    const flaky = failing(ctx.db, 2, coded(lostRace[client][0]));
    const engine = createWriteEngine({ db: flaky.db, model: ctx.model, i18n });
    const { documentId } = await engine.create(T, { name: 'retried' }, { status: 'published' });
    expect(flaky.attempts()).toBe(3);
    expect(await tagCount('retried')).toBe(1);
    expect((await ctx.db.query<{ document_id: string }>('SELECT document_id FROM tags WHERE name = ?', ['retried']))[0]!.document_id).toBe(documentId);
  });

  it('gives up after five attempts, and does not retry other errors', async () => {
    const code = lostRace[client][0];
    const always = failing(ctx.db, 99, coded(code));
    await expect(createWriteEngine({ db: always.db, model: ctx.model, i18n }).create(T, { name: 'never' }, { status: 'published' })).rejects.toMatchObject({ code });
    expect(always.attempts()).toBe(5);
    const other = failing(ctx.db, 1, coded('23505'));
    await expect(createWriteEngine({ db: other.db, model: ctx.model, i18n }).create(T, { name: 'once' }, { status: 'published' })).rejects.toMatchObject({ code: '23505' });
    expect(other.attempts()).toBe(1);
    expect(await tagCount('never')).toBe(0);
    expect(await tagCount('once')).toBe(0);
  });
});
