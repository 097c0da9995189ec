/** The outbox's housekeeping on every database: delivered rows go after the retention, the others stay. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, openExampleDatabase, type ExampleDatabase } from '../../../test/support/example-db.ts';
import { prune } from './delivery.ts';
import { OUTBOX_TABLE } from './outbox.ts';

describe.each(clients)('outbox retention on %s', (client) => {
  let example: ExampleDatabase;
  beforeAll(async () => {
    example = await openExampleDatabase(client);
  });
  afterAll(() => example.close());

  it('deletes delivered rows older than the retention and keeps pending, failed and recent ones', async () => {
    const day = 86_400_000;
    const at = (daysAgo: number) => new Date(Date.now() - daysAgo * day);
    const rows: [string, Date | null, Date | null][] = [
      ['old delivered', at(10), null],
      ['recent delivered', at(1), null],
      ['old failed', null, at(10)],
      ['old pending', null, null],
    ];
    for (const [webhook, deliveredAt, failedAt] of rows) {
      await example.db.execute(
        `INSERT INTO "${OUTBOX_TABLE}" (webhook, event, payload, attempts, next_attempt_at, delivered_at, failed_at, created_at) VALUES (?, 'entry.create', '{}', 1, ?, ?, ?, ?)`,
        [webhook, at(10), deliveredAt, failedAt, at(10)],
      );
    }
    expect(await prune(example.db, 7 * day)).toBe(1);
    const left = await example.db.query<{ webhook: string }>(`SELECT webhook FROM "${OUTBOX_TABLE}" ORDER BY id`);
    expect(left.map((r) => r.webhook)).toEqual(['recent delivered', 'old failed', 'old pending']);
  });
});
