/**
 * The replicas of a database and what is known about each: whether it answers, how far it has
 * replayed the primary's log, and so whether it may serve reads. A check every
 * `checkIntervalMs` samples the primary's log position and asks every replica for its replayed
 * position; a replica that does not answer, replicates nothing (promoted, or pointed at the wrong
 * server), or is more than `maxLagMs` behind serves nothing until a later check finds it well
 * again. A replica that fails a statement between checks is left out at once and checked again
 * at once, so one dead replica costs a request a retry on the primary, never an error.
 */
import type { DatabaseConfig } from '../config.ts';
import { describeDriverError, type Database } from '../database.ts';
import type { ReplicationSupport } from '../dialect/types.ts';
import type { Logger } from '../logger.ts';

/** `unchecked` until the first check, so that a replica down from the start is logged too. */
export type Health = 'unchecked' | 'up' | 'behind' | 'down';

/** One replica: its connection pool once opened, and what the last look at it found. */
export class Replica {
  db: Database | undefined;
  health: Health = 'unchecked';
  /** The last replayed position seen; -1 before any. */
  replayed = -1n;
  /** A live look at the replayed position in flight, shared by the reads that wait for it. */
  refreshing: Promise<void> | undefined;

  constructor(readonly config: DatabaseConfig) {}

  get label(): string {
    return this.config.label;
  }
}

export interface ReplicaSetOptions {
  readonly primary: Database;
  readonly replication: ReplicationSupport;
  readonly servers: readonly DatabaseConfig[];
  readonly maxLagMs: number;
  readonly checkIntervalMs: number;
  readonly logger: Logger;
  /** Opens a replica's pool; a replica that cannot be opened yet is tried again at the next check. */
  readonly open: (config: DatabaseConfig) => Promise<Database>;
}

/** The primary's position at one check: a replica that has not replayed it is at least `now - at` behind. */
interface Sample {
  readonly position: bigint;
  readonly at: number;
}

/** Samples kept at most (at one check a second, over two hours): a replica behind all of them is far past any sensible maxLagMs. */
const maxSamples = 8192;

export class ReplicaSet {
  readonly replicas: readonly Replica[];
  #samples: Sample[] = [];
  #next = 0;
  #checking: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(private readonly options: ReplicaSetOptions) {
    this.replicas = options.servers.map((config) => new Replica(config));
  }

  /** Checks once (so reads can use the replicas from the first request), then every checkIntervalMs. */
  async start(): Promise<void> {
    await this.check();
    this.#timer = setInterval(() => void this.check(), this.options.checkIntervalMs);
    // The checks keep nothing alive: the server's listening socket does.
    this.#timer.unref();
  }

  /** One check of every replica; a check asked for while one runs is that one. None once closed (it would open pools again). */
  check(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#checking ??= this.#checkAll().finally(() => {
      this.#checking = undefined;
    });
    return this.#checking;
  }

  /**
   * A replica to read from that has replayed `floor` (any well one when undefined), or
   * undefined: the read goes to the primary. Replicas whose last known position is short of
   * the floor are asked for their position now, once, before giving up on them.
   */
  async choose(floor: bigint | undefined): Promise<Replica | undefined> {
    const serving = this.replicas.filter((replica) => replica.health === 'up');
    if (serving.length === 0) return undefined;
    if (floor === undefined) return this.#roundRobin(serving);
    const caughtUp = (): Replica[] => serving.filter((replica) => replica.health === 'up' && replica.replayed >= floor);
    let ready = caughtUp();
    if (ready.length === 0) {
      await Promise.all(serving.map((replica) => this.#refresh(replica)));
      ready = caughtUp();
    }
    return ready.length === 0 ? undefined : this.#roundRobin(ready);
  }

  /** A statement failed on `replica`: it serves nothing until a check (started now) finds it well. */
  failed(replica: Replica, error: unknown): void {
    this.#setHealth(replica, 'down', describeDriverError(error));
    void this.check();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#checking?.catch(() => undefined);
    await Promise.all(this.replicas.map((replica) => replica.db?.close().catch(() => undefined)));
  }

  async #checkAll(): Promise<void> {
    try {
      const position = await this.#position(this.options.primary, this.options.replication.primaryPosition);
      if (position !== undefined) this.#samples.push({ position, at: Date.now() });
    } catch (error) {
      // Without the primary's position the lag cannot be told; the replicas' own state still is.
      this.options.logger.warn({ err: error }, 'read replicas: the primary did not tell its log position');
    }
    await Promise.all(this.replicas.map((replica) => this.#checkOne(replica)));
    this.#forgetReplayedSamples();
  }

  async #checkOne(replica: Replica): Promise<void> {
    try {
      replica.db ??= await this.options.open(replica.config);
      const replayed = await this.#position(replica.db, this.options.replication.replayedPosition);
      if (replayed === undefined) {
        this.#setHealth(replica, 'down', 'it replicates nothing (promoted, or not a replica)');
        return;
      }
      replica.replayed = replayed;
      const lag = this.#lagMs(replayed);
      if (lag > this.options.maxLagMs) this.#setHealth(replica, 'behind', `at least ${lag} ms behind the primary (maxLagMs ${this.options.maxLagMs})`);
      else this.#setHealth(replica, 'up', 'replaying');
    } catch (error) {
      this.#setHealth(replica, 'down', describeDriverError(error));
    }
  }

  /** How long ago the primary was at a position `replayed` has not reached: 0 when it has replayed every sample. */
  #lagMs(replayed: bigint): number {
    const missed = this.#samples.find((sample) => sample.position > replayed);
    return missed === undefined ? 0 : Date.now() - missed.at;
  }

  /** Samples every replica has replayed say nothing more (the last one stays: it dates the newest position). */
  #forgetReplayedSamples(): void {
    const slowest = this.replicas.reduce((least, replica) => (replica.replayed < least ? replica.replayed : least), this.#samples.at(-1)?.position ?? -1n);
    const keepFrom = this.#samples.findIndex((sample) => sample.position > slowest);
    const from = keepFrom === -1 ? this.#samples.length - 1 : keepFrom;
    this.#samples = this.#samples.slice(Math.max(from, this.#samples.length - maxSamples, 0));
  }

  #refresh(replica: Replica): Promise<void> {
    const db = replica.db;
    if (db === undefined) return Promise.resolve();
    replica.refreshing ??= this.#position(db, this.options.replication.replayedPosition)
      .then((replayed) => {
        if (replayed !== undefined && replayed > replica.replayed) replica.replayed = replayed;
      })
      .catch((error: unknown) => this.failed(replica, error))
      .finally(() => {
        replica.refreshing = undefined;
      });
    return replica.refreshing;
  }

  async #position(db: Database, sql: string): Promise<bigint | undefined> {
    const [row] = await db.query<{ position: string | null }>(sql);
    return typeof row?.position === 'string' ? this.options.replication.parsePosition(row.position) : undefined;
  }

  #roundRobin(replicas: readonly Replica[]): Replica | undefined {
    return replicas[this.#next++ % replicas.length];
  }

  /** Logs a change of health only, so that a replica down for an hour logs twice, not every second. */
  #setHealth(replica: Replica, health: Health, why: string): void {
    if (replica.health === health) return;
    replica.health = health;
    const message = `read replica ${replica.label}: ${health === 'up' ? 'serving reads' : `left out, ${why}`}`;
    if (health === 'up') this.options.logger.info(message);
    else this.options.logger.warn(message);
  }
}
