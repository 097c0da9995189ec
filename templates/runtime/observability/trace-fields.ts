/**
 * The trace and span ids of a request's span, kept with the request so that its log line can
 * name them (middlewares/request-log.ts) without loading the OpenTelemetry API: set by
 * tracing.ts only when tracing is on.
 */
import type { IncomingMessage } from 'node:http';

export interface TraceFields {
  readonly traceId: string;
  readonly spanId: string;
}

const fields = new WeakMap<IncomingMessage, TraceFields>();

export function setTraceFields(req: IncomingMessage, ids: TraceFields): void {
  fields.set(req, ids);
}

export function traceFieldsOf(req: IncomingMessage): TraceFields | undefined {
  return fields.get(req);
}
