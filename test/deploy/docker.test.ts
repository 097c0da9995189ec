/**
 * The generated project's Dockerfile. There is no Docker engine on this machine, so it is
 * checked twice: read as Docker reads it (stages, user, health check, pinned images, a
 * production-only install), and run: each stage's COPY / RUN / ENV in order, in a folder of its
 * own standing for the stage's /app, with the generated project as build context (filtered by
 * its .dockerignore), then the runtime stage's CMD, whose /_health and HEALTHCHECK must pass.
 *
 * Two things differ from `docker build`, both outside the Dockerfile's commands: npm runs
 * offline from the machine's npm cache, and the install scripts package.json approves are not
 * run (better-sqlite3 would compile for minutes on a shared machine); their output, the native
 * binding, is copied from capi's own install instead.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capi, grant, node, startServer } from '../support/cli.ts';
import { dockerignorePatterns, envPairs, execForm, isIgnored, parseDockerfile, type Dockerfile, type Stage } from '../support/dockerfile.ts';
import { repoRoot } from '../support/model.ts';

const run = promisify(execFile);
const work = mkdtempSync(join(tmpdir(), 'capi-docker-'));
const project = join(work, 'project');
let dockerfile: Dockerfile;

beforeAll(async () => {
  const generated = await capi(['generate', '--out', project, '--skip-build', '--quiet']);
  expect(generated.code, generated.stderr).toBe(0);
  // The image serves what config/permissions.json opens: a new project opens no content.
  grant(project, 'public', ['api::article.article.find']);
  // And its OpenAPI document, off by default in production.
  const plugins = join(project, 'config', 'plugins.json');
  writeFileSync(plugins, JSON.stringify({ ...JSON.parse(readFileSync(plugins, 'utf8')), documentation: { enabled: true } }));
  dockerfile = parseDockerfile(readFileSync(join(project, 'Dockerfile'), 'utf8'));
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

const stage = (name: string): Stage => {
  const found = dockerfile.stages.find((s) => s.name === name);
  if (found === undefined) throw new Error(`no stage ${name}`);
  return found;
};
const commands = (s: Stage, keyword: string): string[] => s.instructions.filter((i) => i.keyword === keyword).map((i) => i.operands);

describe('the generated Dockerfile, as Docker reads it', () => {
  it('builds in stages and runs the last one as a non-root user', () => {
    expect(dockerfile.stages.map((s) => s.name)).toEqual(['deps', 'build', 'runtime']);
    const runtime = stage('runtime');
    const users = commands(runtime, 'USER');
    expect(users.length).toBeGreaterThan(0);
    expect(users.at(-1)).not.toMatch(/^(root|0)(:|$)/);
    // Everything the runtime stage copies is owned by that user.
    for (const copy of runtime.instructions.filter((i) => i.keyword === 'COPY')) expect(copy.flags.chown).toBe(users.at(-1) + ':' + users.at(-1));
  });

  it('pins every base image to a version, never latest', () => {
    for (const s of dockerfile.stages) {
      expect(s.image).toMatch(/^[\w./-]+:[\w.-]+$/);
      expect(s.image).not.toMatch(/:latest$/);
      expect(s.image).toMatch(/^node:\d+/);
    }
  });

  it('installs production dependencies only into what runs, from the lockfile', () => {
    expect(commands(stage('deps'), 'RUN')).toContain('npm ci --omit=dev --no-audit --no-fund');
    expect(commands(stage('build'), 'RUN')).toEqual(['npm ci --ignore-scripts --no-audit --no-fund', 'npm run build']);
    expect(commands(stage('runtime'), 'RUN').join('\n')).not.toMatch(/npm (ci|install)/);
    const copied = commands(stage('runtime'), 'COPY');
    expect(copied).toContain('/app/node_modules ./node_modules');
    expect(stage('runtime').instructions.find((i) => i.operands === '/app/node_modules ./node_modules')?.flags.from).toBe('deps');
  });

  it('listens on all interfaces at 1337 and checks /_health', () => {
    const runtime = stage('runtime');
    expect(envPairs(commands(runtime, 'ENV').join(' '))).toMatchObject({ HOST: '0.0.0.0', PORT: '1337', NODE_ENV: 'production' });
    expect(commands(runtime, 'EXPOSE')).toEqual(['1337']);
    const [health] = runtime.instructions.filter((i) => i.keyword === 'HEALTHCHECK');
    expect(health?.flags).toMatchObject({ interval: '30s', timeout: '5s' });
    expect(execForm(health?.operands ?? '').join(' ')).toContain('/_health');
    expect(execForm(commands(runtime, 'CMD')[0] ?? '')).toEqual(['node', 'dist/main.js']);
  });

  it('keeps local data, secrets and installed output out of the build context', () => {
    const ignore = dockerignorePatterns(readFileSync(join(project, '.dockerignore'), 'utf8'));
    for (const path of ['node_modules/x/index.js', 'dist/main.js', '.data/data.db', 'public/uploads/a.png', '.env', '.env.production']) expect(isIgnored(ignore, path), path).toBe(true);
    for (const path of ['.env.example', 'package-lock.json', 'src/main.ts', 'prisma/migrations/0001_init/migration.sql', 'config/server.json']) expect(isIgnored(ignore, path), path).toBe(false);
  });
});

describe('the generated Dockerfile, run step by step', () => {
  const stageRoot = (name: string): string => join(work, 'stages', name);
  /** Stage paths are under /app; each stage's /app is a folder here. */
  const inStage = (name: string, path: string, cwd: string): string => (path.startsWith('/app') ? join(stageRoot(name), path.slice('/app'.length)) : join(cwd, path));

  /** COPY from the build context (the generated project minus .dockerignore) or from another stage. */
  const copy = (s: Stage, operands: string, from: string | undefined, cwd: string): void => {
    const parts = operands.split(/\s+/);
    const dest = parts.pop() ?? '.';
    const ignore = dockerignorePatterns(readFileSync(join(project, '.dockerignore'), 'utf8'));
    for (const source of parts) {
      const origin = from === undefined ? join(project, source) : inStage(from, source, stageRoot(from));
      expect(existsSync(origin), `${s.name}: COPY ${source}`).toBe(true);
      const target = dest.endsWith('/') || dest === '.' || dest === './' ? join(inStage(s.name, dest, cwd), source.split('/').pop() ?? source) : inStage(s.name, dest, cwd);
      mkdirSync(dirname(target), { recursive: true });
      cpSync(origin, target, {
        recursive: true,
        filter: (path) => from !== undefined || !isIgnored(ignore, relative(project, path).split('\\').join('/')),
      });
    }
  };

  /** What the approved install scripts produce, taken from capi's own install (see the header). */
  const approvedScriptOutputs = (cwd: string): void => {
    const manifest = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { allowScripts: Record<string, boolean> };
    for (const [name, allowed] of Object.entries(manifest.allowScripts)) {
      const built = join(repoRoot, 'node_modules', name, 'build');
      if (allowed && existsSync(join(cwd, 'node_modules', name)) && existsSync(built)) cpSync(built, join(cwd, 'node_modules', name, 'build'), { recursive: true });
    }
  };

  const build = async (): Promise<{ env: Record<string, string>; cmd: string[]; health: string[] }> => {
    let env: Record<string, string> = {};
    let cmd: string[] = [];
    let health: string[] = [];
    for (const s of dockerfile.stages) {
      env = {};
      let cwd = stageRoot(s.name);
      mkdirSync(cwd, { recursive: true });
      for (const instruction of s.instructions) {
        const { keyword, operands, flags } = instruction;
        if (keyword === 'WORKDIR') {
          cwd = inStage(s.name, operands, cwd);
          mkdirSync(cwd, { recursive: true });
        } else if (keyword === 'ENV') env = { ...env, ...envPairs(operands) };
        else if (keyword === 'COPY') copy(s, operands, flags.from, cwd);
        else if (keyword === 'RUN') {
          // `chown node:node` needs the user the image has; the ownership itself is checked above.
          const command = operands.replace(/\s*&&\s*chown\s+\S+\s+.*$/, '');
          await run('sh', ['-c', command], {
            cwd,
            env: { ...process.env, ...env, npm_config_offline: 'true', npm_config_ignore_scripts: 'true', npm_config_update_notifier: 'false' },
            maxBuffer: 64 * 1024 * 1024,
          });
          if (/^npm ci\b/.test(command) && !command.includes('--ignore-scripts')) approvedScriptOutputs(cwd);
        } else if (keyword === 'CMD') cmd = execForm(operands);
        else if (keyword === 'HEALTHCHECK') health = execForm(operands);
        else expect(['USER', 'EXPOSE'], `${s.name}: ${keyword} is not run by this test`).toContain(keyword);
      }
    }
    return { env, cmd, health };
  };

  it('installs, compiles, and starts a server that migrates, answers /_health and passes its HEALTHCHECK', async () => {
    const { env, cmd, health } = await build();
    const app = stageRoot('runtime');
    // Production dependencies only: the compiler and the Prisma CLI stay in the build stage.
    const installed = readdirSync(join(app, 'node_modules'));
    expect(installed).toEqual(expect.arrayContaining(['better-sqlite3', 'sharp', 'express', 'pg']));
    for (const dev of ['typescript', 'prisma']) expect(installed).not.toContain(dev);
    expect(existsSync(join(app, 'node_modules', '@prisma', 'adapter-better-sqlite3'))).toBe(false);
    expect(readdirSync(app).sort()).toEqual(['.data', 'config', 'dist', 'node_modules', 'openapi.json', 'package.json', 'prisma', 'public', 'src']);
    expect(readdirSync(join(app, 'public')).sort()).toEqual(['robots.txt', 'uploads']);
    expect(readdirSync(join(app, 'src'))).toEqual(['graphql']);

    expect(cmd).toEqual(['node', 'dist/main.js']);
    // `docker run -e PORT=...`: a free port instead of 1337, which the machine may be using.
    const { PORT: _port, ...dockerEnv } = env;
    const server = await startServer(app, { ...dockerEnv, LOG_LEVEL: 'info' });
    try {
      expect(server.output()).toMatch(/applied migration 0001_init/);
      expect(server.output()).toMatch(/listening on http:\/\/0\.0\.0\.0:\d+/);
      expect(await (await fetch(`${server.url}/_health`)).json()).toEqual({ status: 'ok', database: 'sqlite' });
      const port = new URL(server.url).port;
      const [program = '', ...args] = health;
      expect(program).toBe('node');
      const check = await node(args, { cwd: app, env: { PORT: port } });
      expect(check.code, check.stderr).toBe(0);
      // The migrated database serves the content API.
      const articles = await fetch(`${server.url}/api/articles`);
      expect(articles.status).toBe(200);
      expect(((await articles.json()) as { data: unknown }).data).toEqual([]);
      // public/ is served, and the OpenAPI document the project enabled.
      expect((await fetch(`${server.url}/robots.txt`)).status).toBe(200);
      expect(((await (await fetch(`${server.url}/api/openapi.json`)).json()) as { openapi: string }).openapi).toMatch(/^3\./);
    } finally {
      await server.stop();
    }
    // The health check fails once the server is gone.
    const [, ...args] = health;
    expect((await node(args, { cwd: app, env: { PORT: new URL(server.url).port } })).code).toBe(1);
  }, 300_000);
});
