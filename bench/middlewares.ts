/**
 * `npx tsx bench/middlewares.ts [--seconds 5]`: what config/middlewares.json costs per request.
 * One in-process server per middleware list, a route answering a fixed 2 KB JSON list (no
 * database work, so that only the HTTP layer is measured), loaded by autocannon with 10
 * connections. Prints a Markdown table for docs/configuration.md.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import express from 'express';
import { createLogger, type LogLevel } from '../templates/runtime/logger.ts';
import { defaultMiddlewareList } from '../templates/runtime/middlewares/config.ts';
import { startServer } from '../templates/runtime/server.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' } } });
const seconds = Number(values.seconds);

const variants: ReadonlyArray<{ name: string; list: readonly unknown[]; level: LogLevel }> = [
  { name: 'strapi::body only', list: ['strapi::body'], level: 'info' },
  { name: "Strapi's default list, LOG_LEVEL=warn", list: defaultMiddlewareList, level: 'warn' },
  { name: "Strapi's default list, LOG_LEVEL=info (a line per request)", list: defaultMiddlewareList, level: 'info' },
  { name: 'default list + strapi::compression (gzip)', list: [...defaultMiddlewareList, 'strapi::compression'], level: 'warn' },
];

const body = { data: Array.from({ length: 20 }, (_, i) => ({ id: i + 1, documentId: `doc${i}`, title: `Article number ${i}`, slug: `article-${i}`, views: i * 7 })), meta: {} };
const root = mkdtempSync(join(tmpdir(), 'capi-bench-middlewares-'));
const rows: string[] = ['| middlewares | req/s | p50 ms | p99 ms |', '| --- | --- | --- | --- |'];
try {
  for (const [index, variant] of variants.entries()) {
    const dir = join(root, String(index));
    mkdirSync(join(dir, 'config'), { recursive: true });
    mkdirSync(join(dir, 'prisma', 'migrations'), { recursive: true });
    writeFileSync(join(dir, 'config', 'middlewares.json'), JSON.stringify(variant.list));
    const api = express.Router();
    api.get('/articles', (_req, res) => void res.json(body));
    // Log lines are produced and serialized, then dropped: the cost of writing them is the terminal's.
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
    const server = await startServer({
      projectRoot: dir,
      model: { contentTypes: {}, components: {} },
      env: { HOST: '127.0.0.1', PORT: '0', DATABASE_URL: 'file::memory:' },
      logger: createLogger({ level: variant.level, destination: sink }),
      handleSignals: false,
      mounts: [() => ({ path: '/api', handler: api })],
    });
    try {
      const result = await autocannon({ url: `${server.url}/api/articles`, connections: 10, duration: seconds, headers: { 'accept-encoding': 'gzip' } });
      rows.push(`| ${variant.name} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} |`);
    } finally {
      await server.close();
    }
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
process.stdout.write(`${rows.join('\n')}\n`);
