/**
 * OpenTelemetry traces, loaded only when the OTEL_* variables ask for them (config.ts
 * `tracingFromEnv`): a server span per request, on the Express and the direct path alike, child
 * of the caller's W3C `traceparent` when it sends one; a client span per SQL statement run while
 * a request's span is active (the statement's text with `?` placeholders, never its values);
 * spans batched to the OTLP/HTTP exporter, which reads its endpoint, headers and timeout from the
 * standard variables, as the SDK reads the sampler (OTEL_TRACES_SAMPLER) and the resource
 * (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES). Spans are explicit, no instrumentation is
 * patched into the libraries.
 */
import type { IncomingMessage } from 'node:http';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, ConsoleSpanExporter, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { RequestHandler } from 'express';
import type { Database, DatabaseKind, QueryEvent } from '../database.ts';
import type { TraceExporter, TracingSettings } from './config.ts';
import { routeOf } from './route.ts';
import { setTraceFields } from './trace-fields.ts';

export interface Tracing {
  /** Opens the request's span and runs the rest of the request inside it; the first app-wide handler. */
  readonly trace: RequestHandler;
  /** Sends the spans still buffered and stops. */
  shutdown(): Promise<void>;
}

/** Each exporter, loaded when chosen (the protobuf one brings its own encoder). */
const exporters: { readonly [E in TraceExporter]: () => Promise<SpanExporter> } = {
  'otlp-http/protobuf': async () => new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter(),
  'otlp-http/json': async () => new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter(),
  console: async () => new ConsoleSpanExporter(),
};

/** `db.system` of each database (OpenTelemetry's names; MariaDB runs on the MySQL dialect). */
const dbSystems: { readonly [K in DatabaseKind]: string } = { sqlite: 'sqlite', postgres: 'postgresql', mysql: 'mysql' };

export async function startTracing(settings: TracingSettings, db: Database): Promise<Tracing> {
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'capi' }))
    .merge(detectResources({ detectors: [envDetector] }));
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(await exporters[settings.exporter]())] });
  // The AsyncLocalStorage context manager carries a request's span into its statements.
  provider.register({ propagator: new W3CTraceContextPropagator() });
  const tracer = provider.getTracer('capi');
  db.onQuery(statementSpans(tracer, dbSystems[db.dialect.kind]));
  return { trace: requestSpans(tracer), shutdown: () => provider.shutdown() };
}

function requestSpans(tracer: Tracer): RequestHandler {
  return (req, res, next) => {
    const method = req.method ?? 'GET';
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'url.path': pathOf(req) } }, parent);
    const ids = span.spanContext();
    setTraceFields(req, { traceId: ids.traceId, spanId: ids.spanId });
    res.once('close', () => {
      const route = routeOf(req);
      span.updateName(`${method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': res.statusCode });
      if (!res.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR, message: 'the connection closed before the response ended' });
      else if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    const active = trace.setSpan(parent, span);
    // Listeners on the request stream (the body parsers) run in the context of the socket that
    // emits, not of this request: bound, the handlers they call on with stay inside its span.
    context.bind(active, req);
    context.bind(active, res);
    context.with(active, next);
  };
}

/**
 * A span per statement, made when the statement has run (the query listener learns of it then)
 * with its real start and end. Statements outside a request (the webhook worker's polls) have no
 * span to belong to and are left out rather than each becoming a trace of its own.
 */
function statementSpans(tracer: Tracer, system: string): (event: QueryEvent) => void {
  return (event) => {
    const active = context.active();
    if (trace.getSpan(active) === undefined) return;
    const end = performance.now();
    const operation = firstWord(event.sql);
    const attributes: Attributes = { 'db.system': system, 'db.system.name': system, 'db.query.text': event.sql, 'db.operation.name': operation };
    const span = tracer.startSpan(operation, { kind: SpanKind.CLIENT, startTime: end - event.durationMs, attributes }, active);
    if (event.error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: event.error instanceof Error ? event.error.message : String(event.error) });
    span.end(end);
  };
}

function firstWord(sql: string): string {
  const match = /^\s*([A-Za-z]+)/.exec(sql);
  return match === null ? 'SQL' : match[1]!.toUpperCase();
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const question = url.indexOf('?');
  return question === -1 ? url : url.slice(0, question);
}
