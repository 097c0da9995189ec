/**
 * Writes a JSON response directly. Express' `res.json` also computes an ETag, looks up a mime
 * type and checks request freshness on every call; for an API whose answers are not cached by
 * ETag that is a third of the time a small request takes (see docs/benchmarks.md).
 */
import type { Response } from 'express';

/** A body that is JSON text already (written by the database: engine/read.ts `rendered`), sent as is. */
export class JsonText {
  constructor(readonly text: string) {}
}

export function sendJson(res: Response, status: number, body: unknown): void {
  const json = body instanceof JsonText ? body.text : JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}
