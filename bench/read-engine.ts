/**
 * `npm run bench:read-engine -- [--database sqlite|postgres] [--reads 400] [--rounds 5]`: the read
 * engine alone, without HTTP, on the engine test seed (conformance seed + 30 articles): CPU
 * milliseconds of this process per `findMany` of 25 articles, for the per-edge path
 * (engine/populate.ts) and the one-statement path (engine/nested.ts), alternating in rounds so
 * the machine's noise hits both alike (the first round warms up and is not counted). The
 * populate trees are the REST benchmark shapes' (bench/shapes.mjs) and gql-nested's selection.
 * CPU time, not wall time: on PostgreSQL the database's own work is in another process and
 * shows in the req/s of `npm run bench:read-paths` instead.
 */
import { parseArgs } from 'node:util';
import type { PopulateTree } from '../templates/runtime/query/types.ts';
import { createReadEngine } from '../templates/runtime/engine/read.ts';
import { listQuery, seedConformance, seedManyArticles } from '../templates/runtime/engine/test-seed.ts';
import { openExampleDatabase } from '../test/support/example-db.ts';

const { values } = parseArgs({ options: { database: { type: 'string', default: 'sqlite' }, reads: { type: 'string', default: '400' }, rounds: { type: 'string', default: '5' } } });
const client = values.database === 'postgres' ? 'postgres' : 'sqlite';
const reads = Number(values.reads);
const rounds = Number(values.rounds);

const zone = { 'shared.rich-text': {}, 'shared.quote': {}, 'shared.media': {}, 'shared.slider': {}, 'shared.article-card': {} };
const trees: Record<string, PopulateTree> = {
  'populate=* (rest-populate-star)': { cover: {}, author: {}, category: {}, tags: {}, seo: {}, blocks: { on: zone } },
  'rest-populate-deep': {
    author: { populate: { avatar: {} } },
    tags: {},
    seo: { populate: { shareImage: {}, metaSocial: {} } },
    blocks: { on: { 'shared.slider': { populate: { files: {} } }, 'shared.quote': {} } },
    category: { populate: { articles: {} } },
  },
  'gql-nested selection': {
    author: { fields: ['name'], populate: { avatar: { fields: ['url'] } } },
    tags: { fields: ['name'] },
    category: { fields: ['name'], populate: { articles: { fields: ['title'] } } },
  },
};

const ex = await openExampleDatabase(client);
try {
  await ex.db.transaction(async (tx) => {
    const seeder = await seedConformance(tx, ex.model);
    await seedManyArticles(seeder, 30);
  });
  const engines = {
    'per-edge': createReadEngine({ db: ex.db, model: ex.model, populate: 'per-edge' }),
    statement: createReadEngine({ db: ex.db, model: ex.model, populate: 'statement' }),
  };
  const rows: string[] = [];
  for (const [name, populate] of Object.entries(trees)) {
    const query = listQuery({ populate, pagination: { kind: 'page', page: 1, pageSize: 25, withCount: false } });
    const cpu = { 'per-edge': 0, statement: 0 };
    const wall = { 'per-edge': 0, statement: 0 };
    for (let round = 0; round < rounds; round += 1) {
      for (const [path, engine] of Object.entries(engines) as [keyof typeof engines, (typeof engines)[keyof typeof engines]][]) {
        const started = performance.now();
        const before = process.cpuUsage();
        for (let i = 0; i < reads; i += 1) await engine.findMany('api::article.article', query);
        const used = process.cpuUsage(before);
        if (round === 0) continue;
        cpu[path] += (used.user + used.system) / 1000 / reads / (rounds - 1);
        wall[path] += (performance.now() - started) / reads / (rounds - 1);
      }
    }
    rows.push(
      `| ${name} | ${cpu['per-edge'].toFixed(3)} | ${cpu.statement.toFixed(3)} | ${(cpu.statement / cpu['per-edge']).toFixed(2)} | ${wall['per-edge'].toFixed(3)} | ${wall.statement.toFixed(3)} |`,
    );
    process.stderr.write(`${rows.at(-1)}\n`);
  }
  process.stdout.write(
    [
      `read engine on ${client}, 25 articles per read, ${reads} reads x ${rounds - 1} rounds per path:`,
      '',
      '| populate | per-edge CPU ms/read | one-statement CPU ms/read | ratio | per-edge wall ms/read | one-statement wall ms/read |',
      '| --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
    ].join('\n'),
  );
} finally {
  await ex.close();
}
