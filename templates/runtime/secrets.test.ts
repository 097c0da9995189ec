import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.ts';
import { createLogger } from './logger.ts';
import type { ContentTypeSchema, ModelSchema } from './schema.ts';
import { checkSecrets } from './secrets.ts';
import { TOKEN_TABLE } from './tokens.ts';

const root = mkdtempSync(join(tmpdir(), 'capi-secrets-'));
const withUsers: ModelSchema = { contentTypes: { 'plugin::users-permissions.user': {} as ContentTypeSchema }, components: {} };
let db: Database;

beforeAll(async () => {
  db = await openDatabase({ client: 'sqlite', filename: join(root, 'secrets.db'), label: 'secrets.db' });
  await db.execute(`CREATE TABLE ${TOKEN_TABLE} (id INTEGER PRIMARY KEY)`);
});
afterAll(async () => {
  await db.close();
  rmSync(root, { recursive: true, force: true });
});

/** The warnings a start with `env` logs. */
async function warnings(env: Record<string, string>, model: ModelSchema = withUsers): Promise<string[]> {
  const lines: string[] = [];
  const logger = createLogger({ level: 'warn', destination: { write: (line: string) => void lines.push(line) } });
  await checkSecrets({ env: { NODE_ENV: 'production', ...env }, db, model, logger });
  return lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
}

describe('JWT_SECRET', () => {
  it('is warned about at start when shorter than HS256 needs (32 bytes)', async () => {
    // Strapi's generated secret: 16 random bytes in base64, 24 characters.
    expect(await warnings({ JWT_SECRET: 'q3Vx8Jm1T0bq9rZk2Lw5Ag==' })).toEqual([
      'JWT_SECRET is 24 bytes long; HS256 needs at least 32 (RFC 7518, 3.2): a short secret can be guessed offline from any token it signed, and then signs in as anyone. Set 32 random bytes or more (openssl rand -base64 48)',
    ]);
    // Whether or not the project has users: JWTs with a `sub` claim are checked with it too.
    expect(await warnings({ JWT_SECRET: 'short' }, { contentTypes: {}, components: {} })).toHaveLength(1);
  });

  it('is accepted quietly from 32 bytes on', async () => {
    expect(await warnings({ JWT_SECRET: 'x'.repeat(32) })).toEqual([]);
    expect(await warnings({ JWT_SECRET: 'é'.repeat(16) })).toEqual([]);
  });
});
