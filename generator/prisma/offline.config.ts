// Prisma CLI configuration used by `capi generate` to diff two schema files fully offline: the JS
// schema engine runs on this in-memory driver adapter instead of a downloaded engine binary.
// Diffing datamodels never touches the adapter's database, and the SQL dialect follows each
// schema's own `provider`, so this one configuration serves SQLite and PostgreSQL schemas alike.
import { defineConfig } from 'prisma/config';
import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';

export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  adapter: async () => new PrismaBetterSQLite3({ url: ':memory:' }),
});
