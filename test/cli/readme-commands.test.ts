/**
 * Every `curl` command of the README's shell blocks, pasted into bash as written: curl must
 * accept it (bracketed query strings need `-g`, or curl reads them as a URL range: "bad range in
 * URL", exit 3) and send the request the README shows, path and query byte for byte. The only
 * change is the address: a stub on a free port stands in for the server at 127.0.0.1:1337.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratch } from '../support/cli.ts';
import { repoRoot } from '../support/model.ts';

const run = promisify(execFile);
const readmeAddress = 'http://127.0.0.1:1337';

/** The `curl` commands of the README's ```sh blocks, continuation lines joined. */
export function curlCommands(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
  return blocks.flatMap((block) =>
    block
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .filter((line) => /^curl\s/.test(line)),
  );
}

describe('the README', () => {
  const commands = curlCommands(readFileSync(join(repoRoot, 'README.md'), 'utf8'));
  const dir = scratch('readme-');
  const received: { method: string; url: string }[] = [];
  let server: Server;
  let address: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
      received.push({ method: req.method ?? '', url: req.url ?? '' });
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    address = `http://127.0.0.1:${port}`;
    // The upload example sends ./photo.jpg.
    writeFileSync(join(dir.dir, 'photo.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xd9]));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    dir.dispose();
  });

  it('has curl examples to run', () => {
    expect(commands.length).toBeGreaterThan(10);
  });

  it.each(commands)('runs as pasted: %s', async (command) => {
    const written = /https?:\/\/127\.0\.0\.1:1337(\/[^'"\s]*)/.exec(command)?.[1];
    expect(written, 'the command names the server at 127.0.0.1:1337').toBeDefined();
    received.length = 0;
    const result = await run('bash', ['-c', command.replaceAll(readmeAddress, address)], { cwd: dir.dir, env: { ...process.env, JWT: 'a-jwt', TOKEN: 'a-token' } }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect('code' in result ? `exit ${result.code}: ${result.stderr}` : 'exit 0').toBe('exit 0');
    expect(received.map((request) => request.url)).toEqual([written]);
  });
});
