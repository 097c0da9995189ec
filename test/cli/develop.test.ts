/**
 * `capi develop` through the real CLI: it generates and serves, then follows edits of the
 * content types — a new field is served after a restart; a schema error and a change that would
 * lose data are printed and refused while the previous server keeps answering; Ctrl-C (SIGINT)
 * stops the watcher and the server and exits 0. Started on a broken schema, it waits for the fix.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, scratch } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';
import { defaultPermissions } from '../../templates/runtime/permissions.ts';
import { writeNoteType } from '../support/note-model.ts';

const space = scratch('develop');
afterAll(() => space.dispose());

/** A running `capi develop` on its own content types, output and port. */
class DevelopSession {
  readonly types: string;
  readonly out: string;
  output = '';
  url = '';
  private process: ChildProcess | undefined;

  constructor(name: string) {
    this.types = join(space.dir, name, 'content-types');
    this.out = join(space.dir, name, 'out');
  }

  /** The user's config/permissions.json, written before the first generation (a new project opens no content): anyone may list notes. */
  static readonly permissions = `${JSON.stringify({ ...defaultPermissions(), public: [...defaultPermissions().public, 'api::note.note.find'] }, null, 2)}\n`;

  permissionsFile(): string {
    return readFileSync(join(this.out, 'config', 'permissions.json'), 'utf8');
  }

  writeNote(attributes: Record<string, unknown>): void {
    writeNoteType(this.types, attributes);
  }

  async start(): Promise<void> {
    mkdirSync(join(this.out, 'config'), { recursive: true });
    writeFileSync(join(this.out, 'config', 'permissions.json'), DevelopSession.permissions);
    const port = await freePort();
    this.url = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'capi.mjs'), 'develop', '--content-types', this.types, '--out', this.out, '--debounce', '100'], {
      cwd: repoRoot,
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info' },
    });
    child.stdout.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (this.output += d.toString()));
    this.process = child;
    await this.until('the watcher to start', () => this.output.includes('for changes (Ctrl-C to stop)'));
  }

  /** Waits until `predicate` holds, polling; the message names what did not happen, with the log. */
  async until(what: string, predicate: () => boolean | Promise<boolean>, timeoutMs = 240_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await predicate())) {
      if (this.process?.exitCode !== null) throw new Error(`capi develop exited (${this.process?.exitCode}) before ${what}:\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** The status of a query filtering on `field`: 200 when the served schema has it, 400 (Invalid key) when not, 0 when nothing answers. */
  filterStatus(field: string): Promise<number> {
    return fetch(`${this.url}/api/notes?filters[${field}][$eq]=x`).then(
      (r) => r.status,
      () => 0,
    );
  }

  /** Output written since `mark` (an offset taken before an edit). */
  since(mark: number): string {
    return this.output.slice(mark);
  }

  /** Ctrl-C; resolves with the exit code. */
  interrupt(): Promise<number | null> {
    const child = this.process;
    if (!child || child.exitCode !== null) return Promise.resolve(child?.exitCode ?? null);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    return exited;
  }

  kill(): void {
    if (this.process?.exitCode === null) this.process.kill('SIGKILL');
  }
}

const session = new DevelopSession('edits');
const writeNote = (attributes: Record<string, unknown>): void => session.writeNote(attributes);
const filterStatus = (field: string): Promise<number> => session.filterStatus(field);
const since = (mark: number): string => session.since(mark);
const until = (what: string, predicate: () => boolean | Promise<boolean>): Promise<void> => session.until(what, predicate);

beforeAll(async () => {
  writeNote({ title: { type: 'string' } });
  await session.start();
  await until('the server to answer', () =>
    fetch(`${session.url}/_health`).then(
      (r) => r.ok,
      () => false,
    ),
  );
}, 300_000);
afterAll(() => session.kill());

// Each step regenerates, compiles and restarts: give it room on a loaded machine.
describe('capi develop', { timeout: 300_000 }, () => {
  it('generates, migrates from empty and serves the content types it watches', async () => {
    expect(session.output).toContain('created 0001_init');
    expect(await filterStatus('title')).toBe(200);
    expect(await filterStatus('body')).toBe(400);
  });

  it('a new field: regenerates, migrates and restarts; the new server serves the field', async () => {
    const mark = session.output.length;
    writeNote({ title: { type: 'string' }, body: { type: 'text' } });
    await until('the new field to be served', async () => (await filterStatus('body')) === 200);
    expect(since(mark)).toContain('note.json changed');
    expect(since(mark)).toMatch(/created 0002_add_notes_body/);
    expect(since(mark)).toContain('restarting the server');
  });

  it('a schema error is printed with file and fix; the previous server keeps answering and the watcher keeps going', async () => {
    const mark = session.output.length;
    writeNote({ title: { type: 'string' }, body: { type: 'text' }, mood: { type: 'strnig' } });
    await until('the schema error', () => since(mark).includes('change not applied'));
    expect(since(mark)).toMatch(/note\.json:\d+:\d+ #\/attributes\/mood\/type: attribute type "strnig" is not a Strapi attribute type/);
    expect(since(mark)).toContain('the server keeps running the previous version');
    expect(since(mark)).not.toContain('restarting the server');
    expect(await filterStatus('body')).toBe(200);
    expect(await filterStatus('mood')).toBe(400);
  });

  it('a change that would lose data is refused with the reason; the previous server keeps answering', async () => {
    const mark = session.output.length;
    writeNote({ title: { type: 'string' } });
    await until('the refusal', () => since(mark).includes('change not applied'));
    expect(since(mark)).toContain('the schema change would lose data');
    expect(since(mark)).toContain('column "notes"."body" (Note.body) would be dropped with its values');
    expect(since(mark)).not.toContain('restarting the server');
    expect(await filterStatus('body')).toBe(200);
  });

  it('after refused changes, a valid one is applied again', async () => {
    const mark = session.output.length;
    writeNote({ title: { type: 'string' }, body: { type: 'text' }, mood: { type: 'string' } });
    await until('the field added after the refusals', async () => (await filterStatus('mood')) === 200);
    expect(since(mark)).toMatch(/created 0003_add_notes_mood/);
    // Three regenerations later, the permissions are still the user's: nothing was granted.
    expect(session.permissionsFile()).toBe(DevelopSession.permissions);
  });

  it('an edit that changes no generated file (reformatting) does not restart the server', async () => {
    const mark = session.output.length;
    const file = join(session.types, 'note.json');
    writeFileSync(file, JSON.stringify(JSON.parse(readFileSync(file, 'utf8'))));
    await until('the regeneration', () => /project is unchanged|restarting the server|change not applied/.test(since(mark)));
    expect(since(mark)).toContain('the generated project is unchanged; the server keeps running');
    expect(since(mark)).not.toContain('restarting the server');
    expect(await filterStatus('mood')).toBe(200);
  });

  it('Ctrl-C stops the watcher and the server and exits 0', async () => {
    expect(await session.interrupt()).toBe(0);
    expect(session.output).toContain('capi develop: stopping');
    expect(
      await fetch(`${session.url}/_health`).then(
        () => 'answered',
        () => 'refused',
      ),
    ).toBe('refused');
  });
});

describe('capi develop started on content types with an error', { timeout: 300_000 }, () => {
  const broken = new DevelopSession('broken');
  afterAll(() => broken.kill());

  it('prints the error, keeps watching, and generates and serves once the file is fixed', async () => {
    broken.writeNote({ title: { type: 'strnig' } });
    await broken.start();
    expect(broken.output).toMatch(/note\.json:\d+:\d+ #\/attributes\/title\/type: attribute type "strnig" is not a Strapi attribute type/);
    expect(broken.output).toContain('change not applied; waiting for a fix');
    expect(await broken.filterStatus('title')).toBe(0);
    broken.writeNote({ title: { type: 'string' } });
    await broken.until('the fixed model to be served', async () => (await broken.filterStatus('title')) === 200);
    expect(broken.output).toContain('created 0001_init');
    expect(await broken.interrupt()).toBe(0);
  });
});
