import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from './config-check.ts';
import { envVariables, isProduction, loadDotEnv, renderEnvExample } from './env.ts';

const root = mkdtempSync(join(tmpdir(), 'capi-env-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('loadDotEnv', () => {
  it('fills in what the environment lacks and never overrides it', () => {
    writeFileSync(join(root, '.env'), '# comment\nPORT=4000\nJWT_SECRET="quoted secret"\nexport_not=1\nEMPTY=\nAPI_TOKEN_SALT=from-file\n');
    const env: Record<string, string | undefined> = { PORT: '1337', API_TOKEN_SALT: '' };
    const set = loadDotEnv(root, env);
    expect(env).toEqual({ PORT: '1337', API_TOKEN_SALT: '', JWT_SECRET: 'quoted secret', export_not: '1', EMPTY: '' });
    expect(set.sort()).toEqual(['EMPTY', 'JWT_SECRET', 'export_not']);
  });

  it('does nothing without a .env file', () => {
    const env = {};
    expect(loadDotEnv(join(root, 'missing'), env)).toEqual([]);
    expect(env).toEqual({});
  });

  it('reports an unreadable .env as a ConfigError', () => {
    const dir = mkdtempSync(join(root, 'dir-'));
    // A folder where the file should be: reading it fails.
    mkdirSync(join(dir, '.env'));
    expect(() => loadDotEnv(dir, {})).toThrow(ConfigError);
    expect(() => loadDotEnv(dir, {})).toThrow(/^\.env cannot be read: EISDIR/);
  });
});

describe('.env.example', () => {
  it('lists every variable of the table with its comment, secrets commented out', () => {
    const text = renderEnvExample();
    for (const variable of envVariables) {
      expect(text).toContain(`# ${variable.description}\n${variable.active === true ? '' : '# '}${variable.name}=${variable.example}\n`);
    }
    expect(text).toContain('\nPORT=1337\n');
    expect(text).toContain('\n# JWT_SECRET=');
    expect(text).toContain('\n# API_TOKEN_SALT=');
    expect(new Set(envVariables.map((v) => v.name)).size).toBe(envVariables.length);
  });

  it('names every variable the runtime reads from the environment', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const runtime = join(import.meta.dirname);
    const files = readdirSync(runtime, { recursive: true, withFileTypes: true }).filter((f) => f.isFile() && f.name.endsWith('.ts') && !f.name.endsWith('.test.ts') && f.name !== 'env.ts');
    const read = new Set<string>();
    for (const file of files) {
      const source = readFileSync(join(file.parentPath, file.name), 'utf8');
      for (const match of source.matchAll(/\benv\??\.([A-Z][A-Z0-9_]+)\b/g)) read.add(match[1] ?? '');
    }
    const listed = new Set(envVariables.map((v) => v.name));
    expect([...read].filter((name) => !listed.has(name))).toEqual([]);
  });
});

describe('isProduction', () => {
  it('is NODE_ENV=production only', () => {
    expect(isProduction({ NODE_ENV: 'production' })).toBe(true);
    expect(isProduction({ NODE_ENV: 'development' })).toBe(false);
    expect(isProduction({})).toBe(false);
  });
});
