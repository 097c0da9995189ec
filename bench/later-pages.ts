/**
 * `npm run bench:later-pages -- [--database sqlite|postgres|mysql] [--sizes 1000,10000,100000] [--runs 5]`
 *
 * The read engine alone (no HTTP), one request at a time: the first and the last page of
 * `populate=*`-like articles (author, category, tags, cover, seo, blocks; 25 a page, with the
 * total) as the table grows, the median of `--runs` reads each. Articles are added as the growth
 * table adds them (bench/growth.ts). Sequential medians move far less with a busy machine than
 * throughput under load does, so the last page's cost against the first page's shows what a
 * later page adds: the OFFSET over the root rows, nothing populated for the rows it skips.
 */
import { parseArgs } from 'node:util';
import { openExampleDatabase, type Client } from '../test/support/example-db.ts';
import { seedConformance } from '../templates/runtime/engine/test-seed.ts';
import { createReadEngine } from '../templates/runtime/engine/read.ts';
import type { ListQuery, PopulateTree } from '../templates/runtime/query/types.ts';
import { addArticles, connect } from './growth.ts';

const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'postgres' },
    sizes: { type: 'string', default: '1000,10000,100000' },
    runs: { type: 'string', default: '5' },
  },
});
const client = values.database as Client;
const sizes = values.sizes.split(',').map(Number);
const runs = Number(values.runs);
const PAGE_SIZE = 25;
const ARTICLE = 'api::article.article';
const populate: PopulateTree = { author: {}, category: {}, tags: {}, cover: {}, seo: {}, blocks: {} };
const page = (number: number): ListQuery => ({ status: 'published', populate, sort: [], pagination: { kind: 'page', page: number, pageSize: PAGE_SIZE, withCount: true } });

async function median(read: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await read();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)]!;
}

const ex = await openExampleDatabase(client);
try {
  await ex.db.transaction(async (tx) => void (await seedConformance(tx, ex.model)));
  const sql = await connect({ client, location: ex.config.client === 'sqlite' ? ex.config.filename : ex.config.url });
  const engine = createReadEngine({ db: ex.db, model: ex.model, rendered: false });
  const rows: string[] = [];
  try {
    let have = 0;
    for (const size of sizes) {
      await addArticles(sql, client, have, size);
      have = size;
      await engine.findMany(ARTICLE, page(1));
      const first = await median(() => engine.findMany(ARTICLE, page(1)));
      const last = await median(() => engine.findMany(ARTICLE, page(Math.floor(size / PAGE_SIZE))));
      rows.push(`| ${size} | ${first.toFixed(1)} | ${last.toFixed(1)} | ${(last / first).toFixed(2)} |`);
      process.stderr.write(`${client} ${rows.at(-1)}\n`);
    }
  } finally {
    await sql.close();
  }
  process.stdout.write(
    [
      `Later pages on ${client} (read engine, median of ${runs} reads, one at a time):`,
      '',
      '| articles | first page ms | last page ms | last / first |',
      '| --- | --- | --- | --- |',
      ...rows,
      '',
    ].join('\n'),
  );
} finally {
  await ex.close();
}
