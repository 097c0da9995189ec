/**
 * `npm run bench:observability -- [--with metrics|traces|both] [--database sqlite|postgres]
 * [--seconds 10] [--rounds 2]`: what metrics and traces cost when on. One server with neither
 * against one with Prometheus metrics (config/server.json `metrics.enabled`, a copy of the
 * project), OpenTelemetry traces (OTLP/HTTP protobuf to a sink in this process that answers
 * every export with 200), or both, loaded alternately per shape (bench/paired.ts). What they cost
 * when off is `npm run bench:against -- --ref <commit before them>`.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { runPairedBench, type Variant } from './paired.ts';

const options = { with: { type: 'string' } } as const;
const { values } = parseArgs({ options, strict: false });
const wanted = typeof values.with === 'string' ? values.with : 'both';
if (!['metrics', 'traces', 'both'].includes(wanted)) throw new Error('--with takes metrics, traces or both');

/** The OTLP collector stand-in: reads each export and answers it, as a collector would. */
const sink = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
});
await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
const address = sink.address();
const sinkPort = typeof address === 'object' && address !== null ? address.port : 0;

/** The prepared project with metrics enabled, in a folder of its own. */
function withMetrics(prepared: string): Promise<string> {
  const copy = `${prepared}-metrics`;
  rmSync(copy, { recursive: true, force: true });
  cpSync(prepared, copy, { recursive: true });
  const path = join(copy, 'config', 'server.json');
  const server = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  writeFileSync(path, JSON.stringify({ ...server, metrics: { enabled: true } }));
  return Promise.resolve(copy);
}

const traces = { OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sinkPort}`, OTEL_SERVICE_NAME: 'capi-bench' };
const variants: Record<string, Variant> = {
  metrics: { label: 'metrics', env: {}, project: withMetrics },
  traces: { label: 'traces', env: traces },
  both: { label: 'metrics+traces', env: traces, project: withMetrics },
};

try {
  await runPairedBench({ name: `observability-${wanted}`, subject: 'observability setting', a: { label: 'off', env: {} }, b: variants[wanted]!, options });
} finally {
  sink.close();
}
