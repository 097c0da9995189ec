/**
 * `npm run bench:query-budget -- [--database postgres|sqlite|mysql] [--articles 0] [--runs 5]`:
 * the most expensive reads the default query budget (engine/budget.ts, api.query) admits, timed
 * through the document service (budget check, planning, SQL, entities) on the engine test seed
 * (conformance seed plus `--articles` bulk articles spread over three authors). Each read is
 * checked to be within the budget and at its edge; the first read (planning included, nothing
 * cached) and the median of `--runs` more are reported, in wall milliseconds.
 *
 * The budget bounds the statement's size, not the rows it returns: a chain through to-many
 * relations returns the product of their fan-outs, which grows with the data (`--articles`).
 */
import { parseArgs } from 'node:util';
import { DEFAULT_QUERY_BUDGET, querySize } from '../templates/runtime/engine/budget.ts';
import { createDocumentService } from '../templates/runtime/engine/service.ts';
import { listQuery, seedConformance, seedManyArticles } from '../templates/runtime/engine/test-seed.ts';
import type { AppConfig } from '../templates/runtime/config.ts';
import type { Filter, ListQuery, PopulateTree } from '../templates/runtime/query/types.ts';
import { openExampleDatabase } from '../test/support/example-db.ts';

const { values } = parseArgs({ options: { database: { type: 'string', default: 'postgres' }, articles: { type: 'string', default: '0' }, runs: { type: 'string', default: '5' } } });
const client = values.database === 'sqlite' ? 'sqlite' : values.database === 'mysql' ? 'mysql' : 'postgres';
const runs = Number(values.runs);
const { maxDepth, maxTables } = DEFAULT_QUERY_BUDGET;

/** `author { articles { author ... } }`, `levels` deep from an article. */
function authorChain(levels: number, leaf: PopulateTree = {}): PopulateTree {
  let tree = leaf;
  for (let level = levels; level >= 1; level -= 1) tree = { [level % 2 === 1 ? 'author' : 'articles']: { populate: tree } };
  return tree;
}

/** A filter of articles (or, `from: 'author'`, of authors) through `hops` relations: author, articles, author... */
function through(hops: number, from: 'article' | 'author' = 'article'): Filter {
  const onAuthor = (hop: number) => (hop % 2 === 1) === (from === 'article');
  let filter: Filter = { kind: 'condition', attribute: onAuthor(hops) ? 'name' : 'title', operator: 'contains', value: 'a' };
  for (let hop = hops; hop >= 1; hop -= 1) filter = { kind: 'nested', attribute: onAuthor(hop) ? 'author' : 'articles', filter };
  return filter;
}

const zone = {
  'shared.rich-text': {},
  'shared.quote': {},
  'shared.media': { populate: { file: {} } },
  'shared.slider': { populate: { files: {} } },
  'shared.article-card': { populate: { image: {}, article: {} } },
};
/** Everything an article reaches in two levels: 22 tables. */
const articleStar: PopulateTree = {
  cover: {},
  author: { populate: { avatar: {}, articles: {} } },
  category: { populate: { articles: {} } },
  tags: { populate: { articles: {} } },
  featuredProduct: { populate: { gallery: {}, category: {} } },
  seo: { populate: { shareImage: {}, metaSocial: {} } },
  blocks: { on: zone },
};

/** `articleStar` below each article of an author chain, until `maxTables`. */
function wide(): PopulateTree {
  let tree: PopulateTree = articleStar;
  for (let level = 0; level < 3; level += 1) tree = { ...articleStar, author: { populate: { articles: { populate: tree } } } };
  return tree;
}

const reads: Record<string, ListQuery> = {
  [`${maxDepth}-level chain author.articles.author...`]: listQuery({ populate: authorChain(maxDepth) }),
  [`${maxDepth}-hop filter, ${maxDepth}-level chain`]: listQuery({ filters: through(maxDepth), populate: authorChain(maxDepth) }),
  'wide: populate=* two levels deep below a chain': listQuery({ populate: wide() }),
  [`${maxDepth - 1}-hop filters at every level of a chain`]: listQuery({
    populate: {
      author: {
        filters: through(maxDepth - 1, 'author'),
        populate: { articles: { filters: through(maxDepth - 2), populate: { author: { filters: through(maxDepth - 3, 'author'), populate: { articles: { filters: through(maxDepth - 4) } } } } } },
      },
      tags: { populate: { articles: { filters: through(maxDepth - 2), populate: { author: { filters: through(maxDepth - 3, 'author') } } } } },
      category: { populate: { articles: { filters: through(maxDepth - 2), populate: { author: { filters: through(maxDepth - 3, 'author') } } } } },
    },
    filters: { kind: 'and', filters: [through(maxDepth), through(maxDepth - 1), through(maxDepth - 2)] },
  }),
};

const ex = await openExampleDatabase(client);
try {
  await ex.db.transaction(async (tx) => {
    const seeder = await seedConformance(tx, ex.model);
    await seedManyArticles(seeder, Number(values.articles));
  });
  const config = { plugins: { i18n: { defaultLocale: 'en', locales: [{ code: 'en', name: 'English (en)' }] } }, api: { query: DEFAULT_QUERY_BUDGET } } as unknown as AppConfig;
  const rows: string[] = [];
  for (const [name, query] of Object.entries(reads)) {
    const size = querySize(query);
    if (size.depth > maxDepth || size.tables > maxTables) throw new Error(`${name} is outside the budget: ${JSON.stringify(size)}`);
    // A new service per read: nothing planned or compiled before the first read.
    const documents = createDocumentService({ db: ex.db, model: ex.model, config });
    let started = performance.now();
    const { results } = await documents.findMany('api::article.article', query);
    const first = performance.now() - started;
    const times: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      started = performance.now();
      await documents.findMany('api::article.article', query);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)] ?? 0;
    const entities = JSON.stringify(results).match(/"documentId"/g)?.length ?? 0;
    rows.push(`| ${name} | ${size.depth} | ${size.tables} | ${entities} | ${first.toFixed(1)} | ${median.toFixed(1)} |`);
    process.stderr.write(`${rows.at(-1)}\n`);
  }
  process.stdout.write(
    [
      `query budget on ${client} (maxDepth ${maxDepth}, maxTables ${maxTables}), engine test seed + ${values.articles} articles:`,
      '',
      '| read | depth | tables | entities returned | first read ms | median ms |',
      '| --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
    ].join('\n'),
  );
} finally {
  await ex.close();
}
