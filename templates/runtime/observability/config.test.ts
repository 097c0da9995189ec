import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config-check.ts';
import { metricsConfig, tracingFromEnv } from './config.ts';

const where = { file: 'config/server.json', path: 'metrics' };

describe('config/server.json metrics', () => {
  it('is off unless enabled, at /metrics on the API port', () => {
    expect(metricsConfig(where, undefined, {}, 1337)).toEqual({ enabled: false, path: '/metrics' });
    expect(metricsConfig(where, { enabled: true }, {}, 1337)).toEqual({ enabled: true, path: '/metrics' });
  });

  it('takes a path, a port and host of its own, and METRICS_TOKEN', () => {
    expect(metricsConfig(where, { enabled: true, path: '/_metrics', port: 9464, host: '0.0.0.0' }, { METRICS_TOKEN: ' s3cret ' }, 1337)).toEqual({
      enabled: true,
      path: '/_metrics',
      port: 9464,
      host: '0.0.0.0',
      token: 's3cret',
    });
  });

  it('refuses the API port, a path without its slash, unknown keys', () => {
    expect(() => metricsConfig(where, { enabled: true, port: 1337 }, {}, 1337)).toThrow(/metrics\.port.*is the API port/);
    expect(() => metricsConfig(where, { path: 'metrics' }, {}, 1337)).toThrow(ConfigError);
    expect(() => metricsConfig(where, { enable: true }, {}, 1337)).toThrow(/enable/);
  });
});

describe('tracing from OTEL_* variables', () => {
  it('is off with nothing set, with OTEL_SDK_DISABLED, or with the exporter none', () => {
    expect(tracingFromEnv({})).toBeUndefined();
    expect(tracingFromEnv({ OTEL_SERVICE_NAME: 'api' })).toBeUndefined();
    expect(tracingFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(tracingFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
  });

  it('is on with an OTLP endpoint or a named exporter; protobuf unless http/json is asked for', () => {
    expect(tracingFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toEqual({ exporter: 'otlp-http/protobuf' });
    expect(tracingFromEnv({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toEqual({ exporter: 'otlp-http/json' });
    expect(tracingFromEnv({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })).toEqual({ exporter: 'otlp-http/protobuf' });
    expect(tracingFromEnv({ OTEL_TRACES_EXPORTER: 'console' })).toEqual({ exporter: 'console' });
  });

  it('names what it cannot honour: gRPC, other exporters', () => {
    expect(() => tracingFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/OTLP\/HTTP port, 4318/);
    expect(() => tracingFromEnv({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/otlp, console or none/);
    expect(() => tracingFromEnv({ OTEL_TRACES_EXPORTER: 'otlp,console' })).toThrow(ConfigError);
  });
});
