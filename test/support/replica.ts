/**
 * A real streaming replica of the local PostgreSQL for tests: a second cluster on a free port,
 * made with pg_basebackup from the server at CAPI_TEST_PG_URL and started with pg_ctl, both as
 * the `postgres` user (tests run as root in CI). The local server's pg_hba.conf gets the
 * `replication` line pg_basebackup and the replica's streaming need, if it has none, and is
 * reloaded. `destroy` stops the cluster and removes its directory; call it in afterAll.
 */
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, appendFileSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './cli.ts';
import { adminUrl } from './postgres.ts';

const run = promisify(execFile);
const bin = '/usr/lib/postgresql/15/bin';
const replicationLine = 'host replication all 127.0.0.1/32 trust';
const primarySlots = ['max_connections', 'max_worker_processes', 'max_wal_senders', 'max_prepared_transactions', 'max_locks_per_transaction'];

export interface StreamingReplica {
  readonly port: number;
  /** The URL of `database` on the replica. */
  url(database: string): string;
  /** Runs one statement on the replica, in `database` (default `postgres`). */
  query<T extends pg.QueryResultRow>(sql: string, database?: string): Promise<T[]>;
  /** Waits until the replica has replayed everything the primary had written when called. */
  catchUp(): Promise<void>;
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Stops the cluster (fast shutdown: connections are cut, as when a replica host goes away). */
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startStreamingReplica(): Promise<StreamingReplica> {
  await allowReplication();
  const dir = mkdtempSync('/tmp/capi-replica-');
  const data = join(dir, 'data');
  const port = await freePort();
  const asPostgres = (command: string, args: readonly string[]): Promise<unknown> =>
    userInfo().username === 'postgres' ? run(join(bin, command), [...args]) : run('runuser', ['-u', 'postgres', '--', join(bin, command), ...args]);
  const { uid, gid } = postgresIds();
  chownSync(dir, uid, gid);
  chmodSync(dir, 0o700);
  const admin = new URL(adminUrl);
  await asPostgres('pg_basebackup', ['-h', admin.hostname, '-p', admin.port || '5432', '-U', 'postgres', '-D', data, '-R', '-X', 'stream', '-c', 'fast']);
  // Debian keeps postgresql.conf and pg_hba.conf in /etc, so the copied data directory has none.
  // A standby refuses to replay with fewer slots than its primary has: those settings are copied.
  const settings = await withAdmin((client) => client.query<{ name: string; setting: string }>(`SELECT name, setting FROM pg_settings WHERE name = ANY($1)`, [primarySlots]));
  const conf = [`listen_addresses = '127.0.0.1'`, 'hot_standby = on', 'shared_buffers = 16MB', ...settings.map(({ name, setting }) => `${name} = ${setting}`)];
  writeFileSync(join(data, 'postgresql.conf'), `${conf.join('\n')}\n`);
  writeFileSync(join(data, 'pg_hba.conf'), 'local all all trust\nhost all all 127.0.0.1/32 trust\n');
  writeFileSync(join(data, 'pg_ident.conf'), '');
  for (const file of ['postgresql.conf', 'pg_hba.conf', 'pg_ident.conf']) chownSync(join(data, file), uid, gid);
  const start = async (): Promise<void> => {
    await asPostgres('pg_ctl', ['-D', data, '-o', `-p ${port} -k ${dir}`, '-l', join(dir, 'log'), '-w', 'start']);
  };
  const stop = async (): Promise<void> => {
    if (existsSync(join(data, 'postmaster.pid'))) await asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  };
  const url = (database: string): string => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  const query = async <T extends pg.QueryResultRow>(sql: string, database = 'postgres'): Promise<T[]> => {
    const client = new pg.Client({ connectionString: url(database) });
    await client.connect();
    try {
      return (await client.query<T>(sql)).rows;
    } finally {
      await client.end();
    }
  };
  try {
    await start();
  } catch (error) {
    const log = existsSync(join(dir, 'log')) ? readFileSync(join(dir, 'log'), 'utf8') : '';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`the replica did not start: ${String(error)}\n${log}`);
  }
  return {
    port,
    url,
    query,
    async catchUp() {
      const [primary] = await withAdmin((client) => client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn'));
      for (;;) {
        const [row] = await query<{ behind: boolean }>(`SELECT pg_last_wal_replay_lsn() < '${primary!.lsn}'::pg_lsn AS behind`);
        if (row?.behind === false) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    pauseReplay: () => query('SELECT pg_wal_replay_pause()').then(() => undefined),
    resumeReplay: () => query('SELECT pg_wal_replay_resume()').then(() => undefined),
    stop,
    start,
    async destroy() {
      try {
        await stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Adds the replication line to the local server's pg_hba.conf when missing, and reloads it. */
async function allowReplication(): Promise<void> {
  const [row] = await withAdmin((client) => client.query<{ hba_file: string }>('SHOW hba_file'));
  const file = row!.hba_file;
  const lines = readFileSync(file, 'utf8').split('\n');
  if (lines.some((line) => /^\s*host\s+replication\s+all\s+127\.0\.0\.1\/32\s+trust\b/.test(line))) return;
  appendFileSync(file, `${lines.at(-1) === '' ? '' : '\n'}${replicationLine}\n`);
  await withAdmin((client) => client.query('SELECT pg_reload_conf()'));
  // The reload is asynchronous: wait until the server's own view of the file has the line.
  for (let attempt = 0; attempt < 100; attempt++) {
    const [loaded] = await withAdmin((client) => client.query<{ n: string }>("SELECT count(*) AS n FROM pg_hba_file_rules WHERE 'replication' = ANY(database)"));
    if (Number(loaded?.n) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function postgresIds(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error('no postgres user on this machine');
  return { uid: Number(uid), gid: Number(gid) };
}

export async function withAdmin<T>(fn: (client: pg.Client) => Promise<pg.QueryResult<T & pg.QueryResultRow>>): Promise<T[]> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return (await fn(client)).rows;
  } finally {
    await client.end();
  }
}
