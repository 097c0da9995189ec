/**
 * Text that looks like a timestamp is text, on every database: string, text, richtext and JSON
 * attributes holding an ISO 8601 instant come back exactly as written through REST, while a
 * datetime attribute holding the same instant is stored as a timestamp and its filters still
 * compare instants. (MySQL's driver once rewrote every bound ISO string into DATETIME form, so
 * such text came back reformatted there: timestamps are now bound as Dates, dialect/types.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../support/databases.ts';
import { request, startSeededServer, type TestServer } from './support.ts';

const INSTANT = '2024-01-02T03:04:05.000Z';

describe.each(clients)('ISO 8601 text on %s', (database) => {
  let server: TestServer;
  const call = (method: string, path: string, body?: unknown) => request(server.url, method, path, body);
  const names = async (query: string): Promise<string[]> => {
    const answer = await call('GET', `/api/products?${query}&fields[0]=name&sort=name:asc`);
    expect(answer.status).toBe(200);
    return (answer.body.data as { name: string }[]).map((p) => p.name);
  };

  beforeAll(async () => {
    server = await startSeededServer(database, 'timestamp-text');
  });
  afterAll(() => server.stop());

  it('stores text and JSON that look like timestamps as written, and the datetime as the instant', async () => {
    const written = { name: INSTANT, slug: 'iso-text', summary: INSTANT, details: '2024-01-02T03:04:05+01:00', specs: INSTANT, availableAt: INSTANT };
    const created = await call('POST', '/api/products', { data: written });
    expect(created.status).toBe(201);
    const { documentId } = created.body.data as { documentId: string };
    const read = await call('GET', `/api/products/${documentId}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toMatchObject(written);

    const nested = { at: INSTANT, list: [INSTANT, '2024-01-02 03:04:05'] };
    const updated = await call('PUT', `/api/products/${documentId}`, { data: { summary: '2024-01-02T03:04:05.123456Z', specs: nested, availableAt: '2024-01-02T04:04:05+01:00' } });
    expect(updated.status).toBe(200);
    expect((await call('GET', `/api/products/${documentId}`)).body.data).toMatchObject({ name: INSTANT, summary: '2024-01-02T03:04:05.123456Z', specs: nested, availableAt: INSTANT });
  });

  it('filters the text as text and the datetime as an instant', async () => {
    expect(await names(`filters[name][$eq]=${INSTANT}`)).toEqual([INSTANT]);
    expect(await names(`filters[summary][$eq]=2024-01-02T03:04:05.123456Z`)).toEqual([INSTANT]);
    expect(await names(`filters[availableAt][$eq]=${INSTANT}`)).toEqual([INSTANT]);
    expect(await names(`filters[availableAt][$eq]=2024-01-02T04:04:05%2B01:00`)).toEqual([INSTANT]);
    expect(await names(`filters[name][$eq]=${INSTANT}&filters[availableAt][$gt]=2024-01-02T03:04:04.999Z`)).toEqual([INSTANT]);
    expect(await names(`filters[name][$eq]=${INSTANT}&filters[availableAt][$lt]=${INSTANT}`)).toEqual([]);
    expect(await names(`filters[availableAt][$between][0]=2024-01-02T03:04:05.000Z&filters[availableAt][$between][1]=2024-01-02T03:04:05.001Z`)).toEqual([INSTANT]);
  });
});
