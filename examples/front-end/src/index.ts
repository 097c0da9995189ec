/**
 * A small front end on the generated client: the latest articles with their author and tags,
 * the site name, and what a missing document looks like. Run it against a capi server:
 *   API_URL=http://localhost:1337/api npm start
 */
import { CapiError, createClient, type Article } from 'generated-client';

declare const process: { readonly env: Readonly<Record<string, string | undefined>> };

const client = createClient({ baseURL: process.env.API_URL ?? 'http://localhost:1337/api' });

/** The query decides the type: author and tags are there because they are populated. */
const latestQuery = {
  populate: { author: { fields: ['name'] }, tags: { fields: ['name'] } },
  fields: ['title', 'readingTime', 'publishedAt'],
  sort: ['readingTime:desc'],
  pagination: { page: 1, pageSize: 5 },
} as const;

type Card = Article<typeof latestQuery>;

function line(article: Card): string {
  const by = article.author === null ? '' : ` by ${article.author.name ?? 'anonymous'}`;
  const tags = article.tags.length === 0 ? '' : ` [${article.tags.map((tag) => tag.name).join(', ')}]`;
  return `${article.title ?? 'Untitled'} (${article.readingTime ?? '?'} min)${by}${tags}`;
}

async function main(): Promise<void> {
  const { data, meta } = await client.collection('articles').find(latestQuery);
  for (const article of data) console.log(line(article));
  console.log(`${data.length} of ${'total' in meta.pagination ? meta.pagination.total : '?'} articles`);

  try {
    await client.collection('articles').findOne('no-such-document');
  } catch (error) {
    if (!(error instanceof CapiError)) throw error;
    console.log(`${error.envelope.error.name}: ${error.envelope.error.message}`);
  }
}

await main();
