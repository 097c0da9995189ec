import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { emitProject, packageName, templateContext } from '../../generator/emit/project.ts';
import { defaultConfigFiles, defaultPermissions, loadConfig } from '../../templates/runtime/config.ts';
import { envVariables, renderEnvExample } from '../../templates/runtime/env.ts';
import { defaultMiddlewareList } from '../../templates/runtime/middlewares/config.ts';
import { defaultRateLimits } from '../../templates/runtime/rate-limit/config.ts';
import { repoRoot } from '../support/model.ts';

const model = {
  contentTypes: [
    { uid: 'api::article.article', kind: 'collectionType' as const },
    { uid: 'api::global.global', kind: 'singleType' as const },
  ],
};
const options = { database: 'sqlite' as const, source: '../content-types/', projectName: 'generated' };
const byPath = (files: ReturnType<typeof emitProject>) => new Map(files.map((f) => [f.path, f]));
const rootPackage = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

const scratch = mkdtempSync(join(tmpdir(), 'capi-project-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function templateSources(folder: 'runtime' | 'contract'): string[] {
  const dir = join(repoRoot, 'templates', folder);
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.test.ts') && !entry.name.startsWith('test-'))
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

describe('emitProject', () => {
  const files = emitProject(options);
  const map = byPath(files);

  it('emits the skeleton, the config files and the runtime, sorted by path', () => {
    const paths = files.map((f) => f.path);
    expect(paths).toEqual([...paths].sort());
    expect(paths.filter((p) => !p.startsWith('src/runtime/') && !p.startsWith('src/contract/'))).toEqual([
      '.dockerignore',
      '.env.example',
      '.gitignore',
      'Dockerfile',
      'README.md',
      'config/api.json',
      'config/cache.json',
      'config/database.json',
      'config/middlewares.json',
      'config/permissions.json',
      'config/plugins.json',
      'config/rate-limit.json',
      'config/server.json',
      'config/webhooks.json',
      'package-lock.json',
      'package.json',
      'prisma.config.ts',
      'public/robots.txt',
      'src/extensions/index.ts',
      'src/main.ts',
      'src/migrate.ts',
      'tsconfig.json',
    ]);
  });

  it('owns generated code and leaves config, README, .gitignore, the Docker files, public/ and src/extensions to the user after the first run', () => {
    const createOnce = files.filter((f) => f.policy === 'create-once').map((f) => f.path);
    expect(createOnce).toEqual([
      '.dockerignore',
      '.gitignore',
      'Dockerfile',
      'README.md',
      'config/api.json',
      'config/cache.json',
      'config/database.json',
      'config/middlewares.json',
      'config/permissions.json',
      'config/plugins.json',
      'config/rate-limit.json',
      'config/server.json',
      'config/webhooks.json',
      'public/robots.txt',
      'src/extensions/index.ts',
    ]);
  });

  it.each(['runtime', 'contract'] as const)('copies every non-test %s file byte for byte', (folder) => {
    const copied = files.filter((f) => f.path.startsWith(`src/${folder}/`));
    expect(copied.map((f) => f.path)).toEqual(templateSources(folder).map((p) => `src/${folder}/${p}`));
    for (const file of copied) {
      const source = readFileSync(join(repoRoot, 'templates', folder, file.path.slice(`src/${folder}/`.length)));
      expect(Buffer.from(file.contents, 'utf8').equals(source)).toBe(true);
      expect(file.policy).toBe('owned');
    }
    expect(copied.some((f) => f.path.endsWith('.test.ts') || f.path.includes('/test-'))).toBe(false);
  });

  it('is deterministic', () => {
    expect(emitProject(options)).toEqual(files);
  });

  it('writes the default config files as pretty JSON with a trailing newline', () => {
    const defaults = defaultConfigFiles('sqlite');
    for (const name of ['server.json', 'database.json', 'api.json', 'plugins.json', 'middlewares.json', 'rate-limit.json', 'cache.json'] as const) {
      const contents = map.get(`config/${name}`)!.contents;
      expect(contents).toBe(`${JSON.stringify(defaults[name], null, 2)}\n`);
    }
    expect(JSON.parse(map.get('config/permissions.json')!.contents)).toEqual(defaultPermissions());
  });

  it('writes config files that the runtime loads back as the defaults', () => {
    const dir = join(scratch, 'roundtrip');
    for (const file of files.filter((f) => f.path.startsWith('config/'))) {
      mkdirSync(dirname(join(dir, file.path)), { recursive: true });
      writeFileSync(join(dir, file.path), file.contents);
    }
    const config = loadConfig({ projectRoot: dir, env: {}, model });
    expect(config.database).toMatchObject({ client: 'sqlite', label: '.data/data.db' });
    expect(config.permissions).toEqual(defaultPermissions());
    expect(config.middlewares.map((entry) => entry.name)).toEqual([...defaultMiddlewareList]);
    expect(config.rateLimits).toEqual(defaultRateLimits);
  });

  it('writes a .env.example from the runtime table of variables, regenerated every time', () => {
    const example = map.get('.env.example')!;
    expect(example.policy).toBe('owned');
    expect(example.contents).toBe(renderEnvExample());
    for (const variable of envVariables) expect(example.contents).toContain(`${variable.name}=`);
  });

  it('writes a package.json with the runtime dependencies at capi’s own versions', () => {
    const pkg = JSON.parse(map.get('package.json')!.contents) as Record<string, unknown>;
    expect(pkg).toMatchObject({ name: 'generated', private: true, type: 'module' });
    expect(pkg.scripts).toEqual({
      build: 'tsc -p tsconfig.json',
      start: 'tsc -p tsconfig.json && node dist/main.js',
      serve: 'node dist/main.js',
      migrate: 'tsc -p tsconfig.json && node dist/migrate.js',
    });
    const versions = { ...rootPackage.dependencies, ...rootPackage.devDependencies };
    const dependencies = pkg.dependencies as Record<string, string>;
    expect(Object.keys(dependencies)).toEqual([
      '@apollo/server',
      '@as-integrations/express5',
      '@aws-sdk/client-s3',
      '@graphql-yoga/render-graphiql',
      '@opentelemetry/api',
      '@opentelemetry/core',
      '@opentelemetry/exporter-trace-otlp-http',
      '@opentelemetry/exporter-trace-otlp-proto',
      '@opentelemetry/resources',
      '@opentelemetry/sdk-trace-base',
      '@opentelemetry/sdk-trace-node',
      '@paralleldrive/cuid2',
      'bcryptjs',
      'better-sqlite3',
      'compression',
      'cookie-session',
      'cors',
      'express',
      'express-rate-limit',
      'file-type',
      'graphql',
      'helmet',
      'jose',
      'multer',
      'mysql2',
      'nodemailer',
      'pg',
      'pino',
      'pino-http',
      'prom-client',
      'qs',
      'sharp',
      'swagger-ui-dist',
      'tar',
    ]);
    const devDependencies = pkg.devDependencies as Record<string, string>;
    expect(Object.keys(devDependencies)).toEqual([
      '@prisma/adapter-better-sqlite3',
      '@types/better-sqlite3',
      '@types/compression',
      '@types/cookie-session',
      '@types/cors',
      '@types/express',
      '@types/multer',
      '@types/node',
      '@types/nodemailer',
      '@types/pg',
      '@types/qs',
      'prisma',
      'typescript',
    ]);
    for (const [name, range] of Object.entries({ ...dependencies, ...devDependencies })) expect(range).toBe(versions[name]);
  });

  it('imports every package the runtime imports from package.json', () => {
    const pkg = JSON.parse(map.get('package.json')!.contents) as { dependencies: Record<string, string> };
    const imported = new Set<string>();
    for (const file of files.filter((f) => f.path.startsWith('src/runtime/'))) {
      for (const match of file.contents.matchAll(/(?:from|import\()\s*'([^'.][^']*)'/g)) {
        const specifier = match[1]!;
        if (specifier.startsWith('node:')) continue;
        imported.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);
      }
    }
    expect([...imported].sort()).toEqual(Object.keys(pkg.dependencies).sort());
  });

  it('writes the entry points with a header naming the source', () => {
    for (const path of ['src/main.ts', 'src/migrate.ts', 'prisma.config.ts']) {
      expect(map.get(path)!.contents.split('\n')[0]).toBe('// Generated by capi from ../content-types/. Do not edit: change the content types and run `capi generate`.');
    }
    expect(map.get('src/main.ts')!.contents).toContain('mounts: [],');
    expect(map.get('src/migrate.ts')!.contents).toContain("await runMigrations({ projectRoot: fileURLToPath(new URL('..', import.meta.url)) });");
  });

  it('writes a tsconfig that compiles src/ to dist/ with rewritten .ts imports', () => {
    const tsconfig = JSON.parse(map.get('tsconfig.json')!.contents) as { compilerOptions: Record<string, unknown>; include: string[] };
    expect(tsconfig.compilerOptions).toMatchObject({
      strict: true,
      module: 'nodenext',
      rewriteRelativeImportExtensions: true,
      allowImportingTsExtensions: true,
      rootDir: 'src',
      outDir: 'dist',
    });
    expect(tsconfig.include).toEqual(['src']);
  });

  it('ignores build output, the SQLite data, uploads and .env', () => {
    expect(map.get('.gitignore')!.contents.split('\n')).toEqual(expect.arrayContaining(['dist/', '.data/', 'public/uploads/', '.env']));
  });

  it('configures the Prisma CLI with the SQLite adapter on the project database', () => {
    const config = map.get('prisma.config.ts')!.contents;
    expect(config).toContain("import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';");
    expect(config).toContain('const url = (process.env.DATABASE_URL ??= "file:./.data/data.db");');
    expect(config).toContain('new PrismaBetterSQLite3({ url })');
    expect(config).toContain("engine: 'js'");
    expect(config).not.toContain('adapter-pg');
  });
});

describe('emitProject for postgres', () => {
  const map = byPath(emitProject({ ...options, database: 'postgres' }));

  it('configures PostgreSQL in database.json, prisma.config.ts and package.json', () => {
    expect(JSON.parse(map.get('config/database.json')!.contents)).toEqual({
      client: 'postgres',
      connection: { url: 'postgresql://postgres@127.0.0.1:5432/postgres' },
      pool: { max: 10 },
    });
    const config = map.get('prisma.config.ts')!.contents;
    expect(config).toContain("import { PrismaPg } from '@prisma/adapter-pg';");
    expect(config).toContain('const url = (process.env.DATABASE_URL ??= "postgresql://postgres@127.0.0.1:5432/postgres");');
    expect(config).toContain('new PrismaPg({ connectionString: url })');
    const pkg = JSON.parse(map.get('package.json')!.contents) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies['@prisma/adapter-pg']).toBe(rootPackage.dependencies['@prisma/adapter-pg']);
    expect(pkg.devDependencies['@prisma/adapter-better-sqlite3']).toBeUndefined();
    expect(map.get('README.md')!.contents).toContain('a PostgreSQL database');
  });
});

describe('emitProject for mysql', () => {
  const map = byPath(emitProject({ ...options, database: 'mysql' }));

  it('configures MySQL in database.json, prisma.config.ts and package.json', () => {
    expect(JSON.parse(map.get('config/database.json')!.contents)).toEqual({ client: 'mysql', connection: { url: 'mysql://root@127.0.0.1:3306/db' }, pool: { max: 10 } });
    const config = map.get('prisma.config.ts')!.contents;
    expect(config).toContain("import { PrismaMariaDb } from '@prisma/adapter-mariadb';");
    expect(config).toContain('const url = (process.env.DATABASE_URL ??= "mysql://root@127.0.0.1:3306/db");');
    expect(config).toContain("new PrismaMariaDb(url.replace(/^mysql:/, 'mariadb:'))");
    const pkg = JSON.parse(map.get('package.json')!.contents) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(pkg.dependencies['mysql2']).toBe(rootPackage.dependencies['mysql2']);
    expect(pkg.devDependencies['@prisma/adapter-mariadb']).toBe(rootPackage.dependencies['@prisma/adapter-mariadb']);
    expect(pkg.devDependencies['@prisma/adapter-pg']).toBeUndefined();
    expect(map.get('README.md')!.contents).toContain('a MySQL 8 or MariaDB 10.11+ database');
    const lock = JSON.parse(map.get('package-lock.json')!.contents) as { packages: Record<string, unknown> };
    expect(lock.packages['node_modules/mysql2']).toBeDefined();
    expect(lock.packages['node_modules/@prisma/adapter-mariadb']).toBeDefined();
  });
});

describe('inputs', () => {
  it('renders mounts into src/main.ts in order', () => {
    const main = byPath(
      emitProject({
        ...options,
        mounts: [
          { importPath: './rest/index.ts', exportName: 'restRoutes' },
          { importPath: './graphql/index.ts', exportName: 'graphqlRoutes' },
        ],
      }),
    ).get('src/main.ts')!.contents;
    expect(main).toContain("import { restRoutes } from './rest/index.ts';\nimport { graphqlRoutes } from './graphql/index.ts';\n");
    expect(main).toContain('mounts: [restRoutes, graphqlRoutes],');
  });

  it.each([
    ['generated', 'generated'],
    ['My API', 'my-api'],
    ['.hidden', 'hidden'],
    ['***', 'capi-api'],
  ])('turns %j into the package name %j', (name, expected) => {
    expect(packageName(name)).toBe(expected);
  });

  it('documents its template context', () => {
    const context = templateContext({ ...options, projectName: 'x' });
    expect(context).toMatchObject({ projectName: 'x', database: 'sqlite', sqlite: true, source: '../content-types/', capiVersion: rootPackage.version, mounts: [] });
    const header = readFileSync(join(repoRoot, 'generator', 'emit', 'project.ts'), 'utf8').split('*/')[0]!;
    for (const key of Object.keys(context)) expect(header).toContain(`${key} `);
  });
});
