/**
 * `capi generate`, `--check` and `capi validate` through the real CLI, on a copy of the example
 * model generated into a scratch folder.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_SCHEMA } from '../../generator/builtin/users-permissions.ts';
import { defaultPermissions } from '../../templates/runtime/permissions.ts';
import { capi, copyExample, scratch } from '../support/cli.ts';
import { writeNoteType } from '../support/note-model.ts';

const space = scratch('generate');
const types = copyExample(join(space.dir, 'content-types'));
const out = join(space.dir, 'out');
const generate = (...flags: string[]) => capi(['generate', '--content-types', types, '--out', out, ...flags]);

function snapshotTree(dir: string, prefix = ''): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.name === 'dist' || entry.name === '.data') continue;
    if (entry.isDirectory()) Object.assign(files, snapshotTree(dir, rel));
    else files[rel] = readFileSync(join(dir, rel), 'utf8');
  }
  return files;
}

let first: Awaited<ReturnType<typeof generate>>;
beforeAll(async () => {
  first = await generate();
});
afterAll(() => space.dispose());

describe('capi generate', () => {
  it('generates, migrates from empty and compiles, showing each step with its timing', () => {
    // 18 schema files and users-permissions' built-in user and role.
    expect(first.stderr).toMatch(/✓ load +20 files \(flat layout\) +\d+ ms/);
    for (const step of ['validate', 'model', 'emit', 'migrate', 'write', 'build']) expect(first.stderr).toMatch(new RegExp(`✓ ${step} .* \\d+ ms`));
    expect(first.code).toBe(0);
    expect(existsSync(join(out, 'prisma/migrations/0001_init/migration.sql'))).toBe(true);
    expect(existsSync(join(out, 'dist/main.js'))).toBe(true);
  });

  it('is deterministic: a second run changes nothing, byte for byte', async () => {
    const before = snapshotTree(out);
    const again = await generate('--skip-build');
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/✓ migrate +schema unchanged, no migration/);
    expect(again.stderr).toMatch(/✓ write +0 created, 0 updated, 0 removed/);
    expect(snapshotTree(out)).toEqual(before);
  });

  it('--check passes on an up-to-date folder and lists every difference otherwise', async () => {
    expect((await generate('--check')).code).toBe(0);
    appendFileSync(join(out, 'src/api/article/schema.ts'), '// edited by hand\n');
    rmSync(join(out, 'src/api/tag/entity.ts'));
    const check = await generate('--check');
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('differs  src/api/article/schema.ts');
    expect(check.stdout).toContain('missing  src/api/tag/entity.ts');
    expect(check.stdout).not.toContain('prisma/migrations');
    expect((await generate('--skip-build')).code).toBe(0);
    expect((await generate('--check')).code).toBe(0);
  });

  it('--check reports the migration a schema change needs, without writing anything', async () => {
    const article = join(types, 'article.json');
    const original = readFileSync(article, 'utf8');
    const json = JSON.parse(original);
    json.attributes.subtitle = { type: 'string' };
    writeFileSync(article, JSON.stringify(json, null, 2));
    try {
      const check = await generate('--check');
      expect(check.code).toBe(1);
      expect(check.stdout).toContain('differs  prisma/schema.prisma');
      expect(check.stdout).toContain('missing  prisma/migrations/0002_…/migration.sql');
      expect(readdirSync(join(out, 'prisma/migrations'))).toEqual(['0001_init', 'migration_lock.toml']);
    } finally {
      writeFileSync(article, original);
    }
  });

  it('never overwrites config files and never deletes files it does not own', async () => {
    const api = join(out, 'config/api.json');
    writeFileSync(api, '{ "rest": { "defaultLimit": 5, "maxLimit": 50 } }\n');
    writeFileSync(join(out, 'NOTES.md'), 'mine\n');
    // A Strapi project's middleware list, ported by hand.
    const middlewares = join(out, 'config/middlewares.json');
    const ported = '["strapi::logger", "strapi::errors", { "name": "strapi::cors", "config": { "origin": ["https://example.com"] } }, "strapi::body"]\n';
    writeFileSync(middlewares, ported);
    expect((await generate('--skip-build')).code).toBe(0);
    expect(readFileSync(api, 'utf8')).toBe('{ "rest": { "defaultLimit": 5, "maxLimit": 50 } }\n');
    expect(readFileSync(middlewares, 'utf8')).toBe(ported);
    expect(readFileSync(join(out, 'NOTES.md'), 'utf8')).toBe('mine\n');
    expect((await generate('--check')).code).toBe(0);
  });

  it('refuses a change that drops a column, saying what would be lost, and writes nothing', async () => {
    const article = join(types, 'article.json');
    const original = readFileSync(article, 'utf8');
    const json = JSON.parse(original);
    delete json.attributes.readingTime;
    writeFileSync(article, JSON.stringify(json, null, 2));
    const schemaBefore = readFileSync(join(out, 'prisma/schema.prisma'), 'utf8');
    try {
      const refused = await generate('--skip-build');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('capi: the schema change would lose data:');
      expect(refused.stderr).toContain('column "articles"."reading_time" (Article.readingTime) would be dropped with its values');
      expect(refused.stderr).toContain('rerun with --accept-data-loss');
      expect(readFileSync(join(out, 'prisma/schema.prisma'), 'utf8')).toBe(schemaBefore);
    } finally {
      writeFileSync(article, original);
    }
  });

  it('removes the files of a deleted content type when data loss is accepted', async () => {
    const note = join(types, 'internal-note.json');
    const original = readFileSync(note, 'utf8');
    rmSync(note);
    try {
      const result = await generate('--skip-build', '--accept-data-loss');
      expect(result.code).toBe(0);
      expect(existsSync(join(out, 'src/api/internal-note'))).toBe(false);
      expect(readdirSync(join(out, 'prisma/migrations'))).toContain('0002_drop_internal_notes');
      expect(readFileSync(join(out, 'prisma/migrations/0002_drop_internal_notes/migration.sql'), 'utf8')).toContain('DROP TABLE "internal_notes"');
    } finally {
      writeFileSync(note, original);
    }
  });

  it('refuses to mix database providers in one output folder', async () => {
    const result = await generate('--database', 'postgres', '--skip-build');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('prisma/migrations holds sqlite migrations; generate postgres into another --out directory');
  });

  it('opens no content in a new project, and never widens access: a new content type adds no grant to config/permissions.json', async () => {
    const file = join(out, 'config/permissions.json');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(defaultPermissions());
    // The user opens one type on purpose; then adds a type and regenerates.
    const mine = `${JSON.stringify({ ...defaultPermissions(), public: [...defaultPermissions().public, 'api::tag.tag.find'] }, null, 2)}\n`;
    writeFileSync(file, mine);
    writeNoteType(types);
    try {
      const result = await generate('--skip-build');
      expect(result.code).toBe(0);
      expect(existsSync(join(out, 'src/api/note/schema.ts'))).toBe(true);
      expect(readFileSync(file, 'utf8')).toBe(mine);
    } finally {
      rmSync(join(types, 'note.json'));
    }
  });

  it('reports every schema problem with file, position, pointer and hint, and exits 1', async () => {
    const broken = scratch('broken');
    try {
      copyExample(broken.dir);
      writeFileSync(join(broken.dir, 'tag.json'), readFileSync(join(broken.dir, 'tag.json'), 'utf8').replace('"type": "string"', '"type": "strnig"'));
      const result = await capi(['generate', '--content-types', broken.dir, '--out', join(broken.dir, 'out')]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/tag\.json:\d+:\d+ #\/attributes\/name\/type: .*strnig/);
      expect(result.stderr).toContain('fix:');
      expect(existsSync(join(broken.dir, 'out'))).toBe(false);
    } finally {
      broken.dispose();
    }
  });
});

describe('capi validate', () => {
  it('accepts the example model', async () => {
    const result = await capi(['validate', '--content-types', types]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('content types are valid');
  });

  it('refuses a user extension whose password is a plain string, exiting 1 and naming the attribute', async () => {
    const dir = join(space.dir, 'plaintext');
    writeNoteType(dir);
    const extension = join(dir, 'extensions', 'users-permissions');
    mkdirSync(extension, { recursive: true });
    writeFileSync(join(extension, 'user.json'), JSON.stringify({ ...USER_SCHEMA, attributes: { ...USER_SCHEMA.attributes, password: { type: 'string' } } }, null, 2));
    const result = await capi(['validate', '--content-types', dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /extensions\/users-permissions\/user\.json:\d+:\d+ #\/attributes\/password\/type: the user type's extension makes the plugin's attribute "password" a "string"; the plugin's is a "password"/,
    );
  });

  it('reports a file of invalid JSON once: no false "does not exist" for what that file defines', async () => {
    const broken = copyExample(join(space.dir, 'broken-json'));
    const author = join(broken, 'author.json');
    writeFileSync(author, readFileSync(author, 'utf8').replace('{', '{,'));
    const result = await capi(['validate', '--content-types', broken]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/author\.json:1:2 #: invalid JSON/);
    expect(result.stderr).not.toContain('does not exist');
    expect(result.stderr).toContain('1 problem(s) in the content-type schemas');
  });

  it('fails on a missing folder', async () => {
    const result = await capi(['validate', '--content-types', join(space.dir, 'nope')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('content-types directory does not exist');
  });
});

describe('capi --help', () => {
  it('documents every flag of generate', async () => {
    const help = await capi(['generate', '--help']);
    for (const flag of ['--content-types <dir>', '--out <dir>', '--database <client>', '--check', '--accept-data-loss', '--skip-build', '--quiet']) {
      expect(help.stdout).toContain(flag);
    }
  });
});
