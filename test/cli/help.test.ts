/**
 * `capi --version` and the examples at the end of every command's `--help`, through the real CLI.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { commandExamples } from '../../bin/examples.ts';
import { capi } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';

const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };

/** Subcommand names from a help text's "Commands:" section (commander lists `help` too). */
function listedCommands(help: string): string[] {
  const section = help.split('\nCommands:\n')[1]?.split('\n\n')[0] ?? '';
  return [...section.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1] ?? '').filter((name) => name !== 'help');
}

describe('capi --version', () => {
  it.each(['--version', '-v'])('%s prints the version of package.json and exits 0', async (flag) => {
    const result = await capi([flag]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${version}\n`);
  });

  it('is listed in the help', async () => {
    expect((await capi(['--help'])).stdout).toMatch(/-v, --version +print the version of capi/);
  });
});

describe('examples in --help', () => {
  // Every help text, found by walking the "Commands:" sections from `capi --help` (one process
  // per command, a level at a time in parallel).
  const helps = new Map<string, { code: number; stdout: string }>();
  beforeAll(async () => {
    for (let level: string[][] = [[]]; level.length > 0;) {
      const results = await Promise.all(level.map((path) => capi([...path, '--help'])));
      const next: string[][] = [];
      results.forEach((result, i) => {
        const path = level[i] ?? [];
        helps.set(path.join(' '), result);
        for (const name of listedCommands(result.stdout)) next.push([...path, name]);
      });
      level = next;
    }
  }, 300_000);

  it('every command the CLI has, subcommands included, has examples, and no example names a command that does not exist', () => {
    const commands = [...helps.keys()].filter((path) => path !== '').sort();
    expect(commands).toEqual(Object.keys(commandExamples).sort());
    expect(commands).toContain('develop');
    expect(commands).toContain('token create');
  });

  it.each(Object.keys(commandExamples))('capi %s --help ends with its examples, each one a use of that command', (path) => {
    const examples = commandExamples[path] ?? [];
    const help = helps.get(path);
    expect(help?.code).toBe(0);
    expect(help?.stdout).toContain(`Usage: capi ${path}`);
    const tail = help?.stdout.split('\nExamples:\n')[1] ?? '';
    expect(tail.trimEnd().split('\n')).toEqual(examples.map((line) => `  $ ${line}`));
    for (const line of examples) expect(line).toMatch(new RegExp(`^(\\w+=\\S+ )*capi ${path}( |$)`));
  });
});
