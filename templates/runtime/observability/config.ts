/**
 * What observability a deployment asked for: Prometheus metrics from config/server.json
 * `metrics` (off unless enabled), traces from the standard OpenTelemetry variables (off unless an
 * exporter or an OTLP endpoint is named). Both are decided here, from configuration alone, so
 * that nothing of prom-client or the OpenTelemetry SDK is loaded when they are off.
 *
 * config/server.json "metrics": { enabled: false, path: "/metrics", port?: 9464, host? }
 *   enabled: serve Prometheus metrics (prom-client's text format).
 *   path: where, on the API port, or on `port` when given.
 *   port: a listener of its own (on `host`, default the server's) instead of the API port: a
 *     port a firewall keeps private. Under `--workers` the primary process listens on it.
 * METRICS_TOKEN: when set, a scrape must send `Authorization: Bearer <token>`.
 */
import { at, boolean, ConfigError, fail, got, integer, object, string, type Where } from '../config-check.ts';

export interface MetricsConfig {
  readonly enabled: boolean;
  readonly path: string;
  /** A separate listener for the scrape; absent: the API port serves `path`. */
  readonly port?: number;
  readonly host?: string;
  /** The bearer token a scrape must send (METRICS_TOKEN). */
  readonly token?: string;
}

export const DEFAULT_METRICS_PATH = '/metrics';

export function metricsConfig(where: Where, json: unknown, env: Readonly<Record<string, string | undefined>>, serverPort: number): MetricsConfig {
  const file = json === undefined ? {} : object(where, json, ['enabled', 'path', 'port', 'host']);
  const enabled = file.enabled === undefined ? false : boolean(at(where, 'enabled'), file.enabled);
  const path = file.path === undefined ? DEFAULT_METRICS_PATH : string(at(where, 'path'), file.path, { regex: /^\/[A-Za-z0-9._~/-]*$/, description: 'a path starting with /' });
  const port = file.port === undefined ? undefined : integer(at(where, 'port'), file.port, { min: 1, max: 65535 });
  if (port !== undefined && port === serverPort) fail(at(where, 'port'), `is the API port: leave it out to serve metrics there, or give another one ${got(port)}`);
  const host = file.host === undefined ? undefined : string(at(where, 'host'), file.host);
  const token = env.METRICS_TOKEN?.trim();
  return { enabled, path, ...(port === undefined ? {} : { port }), ...(host === undefined ? {} : { host }), ...(token === undefined || token === '' ? {} : { token }) };
}

/** The span exporters the server can load, by their OTEL_TRACES_EXPORTER / protocol names. */
export type TraceExporter = 'otlp-http/protobuf' | 'otlp-http/json' | 'console';

export interface TracingSettings {
  readonly exporter: TraceExporter;
}

const otlpProtocols: Readonly<Record<string, TraceExporter>> = { 'http/protobuf': 'otlp-http/protobuf', 'http/json': 'otlp-http/json' };

/**
 * Tracing is on when OTEL_TRACES_EXPORTER names `otlp` or `console`, or, with it unset, when an
 * OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT); never
 * with OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none. Unset, the specification's default
 * exporter would be OTLP to localhost: a server that nobody asked to trace would then send spans
 * to a port where nothing listens, so capi asks for one explicit setting. Throws ConfigError.
 */
export function tracingFromEnv(env: Readonly<Record<string, string | undefined>>): TracingSettings | undefined {
  const value = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === undefined || v === '' ? undefined : v;
  };
  if (value('OTEL_SDK_DISABLED')?.toLowerCase() === 'true') return undefined;
  const named = value('OTEL_TRACES_EXPORTER')
    ?.split(',')
    .map((name) => name.trim().toLowerCase());
  const wanted = named ?? ((value('OTEL_EXPORTER_OTLP_ENDPOINT') ?? value('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT')) ? ['otlp'] : []);
  if (wanted.length === 0 || wanted.includes('none')) return undefined;
  if (wanted.length > 1 || (wanted[0] !== 'otlp' && wanted[0] !== 'console')) {
    throw new ConfigError(`OTEL_TRACES_EXPORTER must be otlp, console or none (got ${JSON.stringify(env.OTEL_TRACES_EXPORTER)})`);
  }
  if (wanted[0] === 'console') return { exporter: 'console' };
  const protocol = value('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ?? value('OTEL_EXPORTER_OTLP_PROTOCOL') ?? 'http/protobuf';
  const exporter = otlpProtocols[protocol];
  if (exporter === undefined) {
    throw new ConfigError(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json (got ${JSON.stringify(protocol)}; for a gRPC collector, use its OTLP/HTTP port, 4318 by default)`);
  }
  return { exporter };
}
