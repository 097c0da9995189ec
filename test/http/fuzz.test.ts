/**
 * The fuzz test of issue 9: generated hostile requests (fuzz-arbitraries.ts: REST query strings,
 * JSON bodies, multipart uploads, GraphQL documents and variables, all drawn from the model) at a
 * seeded server (fuzz-server.ts) on SQLite and PostgreSQL. It fails on any 5xx, any GraphQL
 * INTERNAL_SERVER_ERROR, any request the server does not answer, and any database invariant
 * (test/support/invariants.ts) broken afterwards.
 *
 * fast-check runs with a fixed seed and a bounded count and time: FUZZ_RUNS rounds per database
 * (default 3,000; a round is one to four concurrent requests, 2.5 on average) within FUZZ_SECONDS
 * (default 90). `npm run fuzz -- --runs N` runs more before a release (test/http/fuzz-cli.ts;
 * `--verbose` prints the answers by kind and status class). Every failure is collected, not just
 * the first, so one run lists all the classes of problems it met.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../support/databases.ts';
import { checkInvariants } from '../support/invariants.ts';
import { FuzzModel, type FuzzRequest } from './fuzz-arbitraries.ts';
import { startFuzzServer, type FuzzServer } from './fuzz-server.ts';

const runs = Number(process.env.FUZZ_RUNS ?? 3000);
const seconds = Number(process.env.FUZZ_SECONDS ?? 90);
const seed = Number(process.env.FUZZ_SEED ?? 20261123);
/** One request may take this long before it counts as a hang. */
const requestTimeoutMs = 20_000;

interface Failure {
  readonly request: string;
  readonly problem: string;
}

async function send(base: string, request: FuzzRequest): Promise<Response> {
  const init: RequestInit = { method: request.method, signal: AbortSignal.timeout(requestTimeoutMs), headers: { ...request.headers } };
  if (typeof request.body === 'string') {
    init.body = request.body;
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  } else if (request.body !== undefined) {
    const form = new FormData();
    for (const part of request.body.form) {
      if ('file' in part) form.append(part.name, new Blob([Buffer.from(part.file.bytes)], { type: part.file.type }), part.file.filename);
      else form.append(part.name, part.value);
    }
    init.body = form;
  }
  return fetch(`${base}${request.path}`, init);
}

/** What is wrong with an answer, or undefined. */
async function problemOf(response: Response, tally: Map<string, number>, kind: string): Promise<string | undefined> {
  const text = await response.text();
  const outcome = `${kind} ${String(response.status).slice(0, 1)}xx${text.includes('"errors"') ? ' with errors' : ''}`;
  tally.set(outcome, (tally.get(outcome) ?? 0) + 1);
  if (response.status >= 500) return `HTTP ${response.status}: ${text.slice(0, 300)}`;
  if (text.includes('INTERNAL_SERVER_ERROR')) return `INTERNAL_SERVER_ERROR: ${text.slice(0, 300)}`;
  return undefined;
}

function describeRequest(request: FuzzRequest): string {
  const body =
    typeof request.body === 'string'
      ? ` ${request.body.slice(0, 400)}`
      : request.body === undefined
        ? ''
        : ` multipart ${JSON.stringify(request.body.form.map((p) => ('file' in p ? { file: p.file.filename, type: p.file.type, bytes: p.file.bytes.length } : p))).slice(0, 400)}`;
  return `${request.method} ${request.path.slice(0, 400)}${body}`;
}

describe.each(clients)('fuzz on %s', (database) => {
  let server: FuzzServer;
  let model: FuzzModel;

  beforeAll(async () => {
    server = await startFuzzServer(database);
    model = new FuzzModel(server.model, server.seeded, server.sdl, server.documents);
  });
  afterAll(async () => server?.stop());

  it(`answers ${runs} rounds of hostile requests with no 5xx and no internal error, and keeps the database consistent`, { timeout: (seconds + 120) * 1000 }, async () => {
    const failures: Failure[] = [];
    const seen = new Set<string>();
    /** Answers by request kind and status class: the requests must reach the engine, not only its validation. */
    const tally = new Map<string, number>();
    let sent = 0;
    await fc.assert(
      // A round is one to four requests sent at once: writes race each other as they would in use.
      fc.asyncProperty(fc.array(model.any(), { minLength: 1, maxLength: 4 }), async (round) => {
        sent += round.length;
        await Promise.all(
          round.map(async (request) => {
            let problem: string | undefined;
            try {
              problem = await problemOf(await send(server.url, request), tally, request.kind);
            } catch (error) {
              problem = `no answer: ${error instanceof Error ? error.message : String(error)}`;
            }
            if (problem === undefined) return;
            // One example per distinct problem text keeps the report readable.
            const key = `${request.kind} ${problem.replace(/"[^"]*"/g, '"…"').slice(0, 120)}`;
            if (seen.has(key)) return;
            seen.add(key);
            failures.push({ request: describeRequest(request), problem });
          }),
        );
      }),
      { seed, numRuns: runs, interruptAfterTimeLimit: seconds * 1000, endOnFailure: true },
    );
    const violations = await checkInvariants(server.db, server.model);
    const report = [...failures.map((f) => `${f.request}\n  -> ${f.problem}`), ...violations.map((v) => `invariant: ${v.invariant}: ${JSON.stringify(v.rows)}`)];
    expect(sent).toBeGreaterThan(0);
    const outcomes = [...tally.keys()];
    if (process.env.FUZZ_VERBOSE === '1') console.info(Object.fromEntries([...tally].sort()));
    // Coverage of outcomes is only meaningful over enough rounds (npm test runs 3,000).
    const coverage =
      runs >= 1000 ? ['rest-query 2xx', 'rest-query 4xx', 'rest-body 2xx', 'rest-body 4xx', 'multipart 2xx', 'multipart 4xx', 'graphql 2xx', 'graphql 2xx with errors', 'graphql 4xx with errors'] : [];
    for (const expected of coverage) expect(outcomes, JSON.stringify(Object.fromEntries(tally))).toContain(expected);
    expect(report, `${report.length} problems after ${sent} requests\n${report.join('\n')}\n--- server output ---\n${server.output().slice(-3000)}`).toEqual([]);
  });
});
