/**
 * `capi permissions list|grant|revoke`, on a project folder holding only what the command reads:
 * src/model.ts (an article collection and a global single type) and config/permissions.json.
 * Each command runs once through the real CLI (exit codes, output streams); the other cases call
 * the command's functions in this process, which the CLI runs as they are. That a grant opens the
 * type on a running server is covered by test/cli/workers.test.ts, which grants through the CLI.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { grantPermissions, listPermissions, revokePermissions } from '../../bin/permissions.ts';
import { defaultPermissions } from '../../templates/runtime/permissions.ts';
import { capi, scratch } from '../support/cli.ts';

const space = scratch('permissions');
afterAll(() => space.dispose());
const project = join(space.dir, 'api');
const file = join(project, 'config', 'permissions.json');
const cli = (...args: string[]) => capi(['permissions', ...args, '--project', project]);

/** Runs a command in this process: what it wrote to stdout and stderr, and the error it threw. */
async function run(command: () => Promise<void>): Promise<{ stdout: string; stderr: string; error?: unknown }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
  try {
    await command();
    return { stdout: out.join(''), stderr: err.join('') };
  } catch (error) {
    return { stdout: out.join(''), stderr: err.join(''), error };
  } finally {
    vi.restoreAllMocks();
  }
}
const list = (role?: string, all = false) => run(() => listPermissions({ project, all, ...(role === undefined ? {} : { role }) }));
const grant = (role: string, ...names: string[]) => run(() => grantPermissions({ project, role, names }));
const revoke = (role: string, ...names: string[]) => run(() => revokePermissions({ project, role, names }));
const read = (): Record<string, string[]> => JSON.parse(readFileSync(file, 'utf8')) as Record<string, string[]>;

mkdirSync(join(project, 'src'), { recursive: true });
writeFileSync(
  join(project, 'src', 'model.ts'),
  `export const model = { contentTypes: {
  'api::global.global': { uid: 'api::global.global', kind: 'singleType' },
  'api::article.article': { uid: 'api::article.article', kind: 'collectionType' },
}, components: {} };\n`,
);

beforeEach(() => {
  rmSync(join(project, 'config'), { recursive: true, force: true });
  mkdirSync(join(project, 'config'));
  writeFileSync(file, `${JSON.stringify(defaultPermissions(), null, 2)}\n`);
});

afterEach(() => vi.restoreAllMocks());

describe('capi permissions', () => {
  it('list: a new project grants no content, one "role<TAB>action" line per grant', async () => {
    const listed = await cli('list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toBe(
      [
        ...defaultPermissions().public.map((action) => `public\t${action}`),
        'authenticated\tplugin::users-permissions.auth.changePassword',
        'authenticated\tplugin::users-permissions.user.me',
        '',
      ].join('\n'),
    );
    expect((await list('authenticated')).stdout).toBe('authenticated\tplugin::users-permissions.auth.changePassword\nauthenticated\tplugin::users-permissions.user.me\n');
  });

  it('list --all: every action the project has, which grant and revoke accept', async () => {
    const actions = (await list(undefined, true)).stdout.trimEnd().split('\n');
    expect(actions.slice(0, 8)).toEqual([
      'api::article.article.find',
      'api::article.article.findOne',
      'api::article.article.create',
      'api::article.article.update',
      'api::article.article.delete',
      'api::global.global.find',
      'api::global.global.update',
      'api::global.global.delete',
    ]);
    expect(actions).toContain('plugin::upload.content-api.upload');
  });

  it('grant: adds actions after the ones the role has, once; a type uid stands for every action of the type', async () => {
    const granted = await cli('grant', 'public', 'api::article.article.findOne', 'api::article.article.find');
    expect(granted.code).toBe(0);
    expect(granted.stderr).toBe('public may now: api::article.article.find, api::article.article.findOne (config/permissions.json; the server reads it when it starts)\n');
    expect(read()).toEqual({ public: [...defaultPermissions().public, 'api::article.article.find', 'api::article.article.findOne'], authenticated: defaultPermissions().authenticated });
    expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(read(), null, 2)}\n`);

    expect((await grant('public', 'api::article.article.find')).stderr).toBe('public already has api::article.article.find\n');

    expect((await grant('editor', 'api::global.global')).error).toBeUndefined();
    expect(read()['editor']).toEqual(['api::global.global.find', 'api::global.global.update', 'api::global.global.delete']);
  });

  it('revoke: takes actions (or a whole type) away and leaves the rest', async () => {
    await grant('authenticated', 'api::article.article');
    const revoked = await revoke('authenticated', 'api::article.article.delete', 'api::article.article.update');
    expect(revoked.stderr).toBe('authenticated may no longer: api::article.article.update, api::article.article.delete (config/permissions.json; the server reads it when it starts)\n');
    expect(read()['authenticated']).toEqual([...defaultPermissions().authenticated, 'api::article.article.find', 'api::article.article.findOne', 'api::article.article.create']);
    await revoke('authenticated', 'api::article.article');
    expect(read()['authenticated']).toEqual(defaultPermissions().authenticated);
  });

  it('refuses a name that is neither an action nor a type with exit code 1 and a suggestion, changing nothing', async () => {
    const before = readFileSync(file, 'utf8');
    const refused = await cli('grant', 'public', 'api::artcle.article.find');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'capi: "api::artcle.article.find" is neither an action nor a type of this project (did you mean "api::article.article.find"?); `capi permissions list --all` shows every action\n',
    );
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it.each([
    [() => grant('public', 'api::global.global.findOne'), '"api::global.global.findOne" is neither an action nor a type of this project'],
    [() => grant('Public', 'api::article.article.find'), 'role "Public" must be a name in lower case (letters, digits, "-" or "_")'],
    [() => revoke('editor', 'api::article.article.find'), 'no role "editor" in config/permissions.json (roles: public, authenticated)'],
    [() => list('editor'), 'no role "editor" in config/permissions.json (roles: public, authenticated)'],
  ])('refuses case %# with a PermissionsCommandError, changing nothing', async (command, message) => {
    const before = readFileSync(file, 'utf8');
    const { error } = await command();
    expect(error).toMatchObject({ name: 'PermissionsCommandError' });
    expect((error as Error).message).toContain(message);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('without config/permissions.json, starts from the defaults: no content for anyone', async () => {
    rmSync(file);
    expect((await list('public')).stdout).toBe(
      defaultPermissions()
        .public.map((action) => `public\t${action}\n`)
        .join(''),
    );
    expect(existsSync(file)).toBe(false);
    await grant('public', 'api::global.global.find');
    expect(read()).toEqual({ public: [...defaultPermissions().public, 'api::global.global.find'], authenticated: defaultPermissions().authenticated });
  });
});
