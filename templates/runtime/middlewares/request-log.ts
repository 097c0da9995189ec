/**
 * `strapi::logger`: one info line per request (method, path, status, response time, request id)
 * through pino-http, and the request id every log line about the request carries.
 *
 * The id is the caller's `X-Request-Id` when it is a sane token (a proxy or load balancer in front
 * usually sets one, so logs of both line up), else a fresh UUID; it is sent back as
 * `X-Request-Id`. Only the method and path are logged, never headers or the query string:
 * values that may be secrets (tokens in `Authorization`, codes in reset links).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../logger.ts';
import { traceFieldsOf } from '../observability/trace-fields.ts';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Letters, digits and `-_.:@/+=`, at most 128: what proxies send (UUIDs, AWS trace ids), nothing a log could be forged with. */
const saneRequestId = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The request id for `req`: the incoming header if sane, else a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value !== undefined && saneRequestId.test(value) ? value : randomUUID();
}

/** Assigns `req.id` and the response header; always on, so that error logs carry the id whatever the middleware list. */
export const requestId: RequestHandler = (req, res, next) => {
  const id = requestIdOf(req);
  (req as { id?: unknown }).id = id;
  res.setHeader(REQUEST_ID_HEADER, id);
  next();
};

/** The logger of a request: its pino-http child (with `reqId`) when `strapi::logger` runs, else one bound to the id. */
export function requestLogger(req: Request, fallback: Logger): Logger {
  const attached = (req as { log?: Logger }).log;
  if (attached !== undefined) return attached;
  const id = (req as { id?: unknown }).id;
  return typeof id === 'string' ? fallback.child({ reqId: id }) : fallback;
}

/** The path without the query string (which may hold a reset code or a token). */
function pathOf(req: IncomingMessage): string {
  const url = (req as { originalUrl?: string }).originalUrl ?? req.url ?? '';
  const question = url.indexOf('?');
  return question === -1 ? url : url.slice(0, question);
}

/**
 * `traced`: tracing is on (observability/tracing.ts), and each line carries the request's
 * `traceId` and `spanId`, so that a log search leads to the trace and back.
 */
export function requestLog(logger: Logger, traced = false): RequestHandler {
  // Above info, pino-http would still build two child loggers and time every request for a
  // success line it then drops (about 5% of a small read, docs/benchmarks.md).
  if (!logger.isLevelEnabled('info')) return failedRequestLog(logger);
  const handler = pinoHttp<IncomingMessage, ServerResponse>({
    // The line's own object rather than pino-http's customProps, which needs pino-http's copy of pino.
    ...(traced ? { customSuccessObject: withTrace, customErrorObject: (req: IncomingMessage, _res: ServerResponse, _error: Error, fields: object) => withTrace(req, _res, fields) } : {}),
    logger,
    // requestId above ran first; pino-http reads the same id.
    genReqId: (req) => {
      const id = (req as { id?: unknown }).id;
      return typeof id === 'string' ? id : requestIdOf(req);
    },
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'reqId', responseTime: 'responseTime' },
    serializers: {
      req: (req: { method?: string; raw?: IncomingMessage }) => ({ method: req.method, path: req.raw === undefined ? undefined : pathOf(req.raw) }),
      res: (res: { statusCode?: number }) => ({ status: res.statusCode }),
    },
    customLogLevel: (_req, res, error) => (error !== undefined || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessMessage: (req, res, responseTime) => `${req.method ?? ''} ${pathOf(req)} ${res.statusCode} ${Math.round(responseTime)}ms`,
    customErrorMessage: (req, res) => `${req.method ?? ''} ${pathOf(req)} ${res.statusCode} failed`,
  });
  return handler as unknown as RequestHandler;
}

function withTrace(req: IncomingMessage, _res: ServerResponse, fields: object): object {
  return { ...fields, ...traceFieldsOf(req) };
}

/**
 * The request log when info lines are off: only what pino-http logs above info, a request
 * answered with a 5xx, as the same error line (its reqId, method and path, status, response time,
 * the error pino-http makes up for a status, and its message).
 */
function failedRequestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = Date.now();
    const complete = (): void => {
      res.off('close', complete);
      res.off('finish', complete);
      if (res.statusCode < 500) return;
      const path = pathOf(req);
      const fields = {
        reqId: (req as { id?: unknown }).id,
        ...traceFieldsOf(req),
        req: { method: req.method, path },
        res: { status: res.statusCode },
        err: new Error(`failed with status code ${res.statusCode}`),
        responseTime: Date.now() - started,
      };
      logger.error(fields, `${req.method} ${path} ${res.statusCode} failed`);
    };
    res.on('close', complete);
    res.on('finish', complete);
    next();
  };
}
