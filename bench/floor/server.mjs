// The floor: a bare node:http server that answers the benchmark shapes it has a statement for
// (statements.mjs) with ONE SQL statement each, from the same database capi serves, and 404
// otherwise. What Node and the database can do for these responses, with no framework, no
// engine and no per-row JavaScript: the bench compares capi with it (bench/run.ts).
//
//   node bench/floor/server.mjs --client sqlite --database /path/to.db --port 0
//   node bench/floor/server.mjs --client postgres --database postgresql://... --port 0
// Prints `listening <port>` once ready. X-Query-Count reports the statements of each answer.
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { shapes } from '../shapes.mjs';
import { statements } from './statements.mjs';

const { values } = parseArgs({ options: { client: { type: 'string' }, database: { type: 'string' }, port: { type: 'string', default: '0' } } });

async function open(client, location) {
  if (client === 'sqlite') {
    const { default: Driver } = await import('better-sqlite3');
    const db = new Driver(location, { readonly: true });
    db.pragma('busy_timeout = 5000');
    const prepared = new Map();
    return (sql) => {
      let statement = prepared.get(sql);
      if (!statement) prepared.set(sql, (statement = db.prepare(sql).pluck()));
      return Promise.resolve(statement.get());
    };
  }
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: location, max: 10 });
  const names = new Map();
  return async (sql) => {
    // A named statement is parsed and planned once per connection, as capi's are.
    let name = names.get(sql);
    if (!name) names.set(sql, (name = `floor_${names.size}`));
    const result = await pool.query({ name, text: sql, rowMode: 'array' });
    return result.rows[0][0];
  };
}

const run = await open(values.client, values.database);
/** `METHOD path` (plus the body of a POST) -> statement. */
const routes = new Map();
for (const [name, shape] of Object.entries(shapes)) {
  const statement = statements[name]?.[values.client];
  if (statement !== undefined) routes.set(`${shape.method ?? 'GET'} ${shape.path} ${shape.body ?? ''}`, statement);
}

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const statement = routes.get(`${req.method} ${req.url} ${Buffer.concat(chunks).toString()}`);
    if (statement === undefined) {
      res.writeHead(404, { 'content-type': 'application/json; charset=utf-8' }).end('{"data":null,"error":{"status":404,"name":"NotFoundError","message":"Not Found","details":{}}}');
      return;
    }
    run(statement).then(
      (body) => res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-query-count': '1' }).end(body),
      (error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error?.message ?? error)),
    );
  });
});
server.listen(Number(values.port), '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
