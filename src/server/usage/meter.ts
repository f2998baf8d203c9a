/**
 * Durable connection meter: every speech connection is a row (account, region, opened, closed) and every
 * stretch of it on one model an interval row (model, start, end). `setModel` with a different model closes
 * the current interval and opens the next at the same instant; time before the first successful
 * `stream-config` uses no model and is not billed to any. Writes go straight to SQLite, so a report sees a
 * connection from the moment it opens. The clock is injectable so tests can be exact.
 */
import type { ConnectionMeter, MeteredConnection } from '../context.js';
import type { Db } from '../store.js';
import type { UsageInterval } from '../../protocol/usage.js';

/** Milliseconds since the epoch. */
export type Clock = () => number;

/** SQLite-backed {@link ConnectionMeter}. */
export class SqliteConnectionMeter implements ConnectionMeter {
  /** The clock the meter and its reports use. */
  readonly now: Clock;
  readonly #db: Db;

  constructor(db: Db, clock: Clock = Date.now) {
    this.#db = db;
    this.now = clock;
    db.exec(`CREATE TABLE IF NOT EXISTS usage_connections (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      account_id TEXT NOT NULL,
      region TEXT NOT NULL,
      opened_ms INTEGER NOT NULL,
      closed_ms INTEGER
    );
    CREATE TABLE IF NOT EXISTS usage_intervals (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      connection_id INTEGER NOT NULL REFERENCES usage_connections (id),
      account_id TEXT NOT NULL,
      region TEXT NOT NULL,
      model TEXT NOT NULL,
      start_ms INTEGER NOT NULL,
      end_ms INTEGER
    );
    CREATE INDEX IF NOT EXISTS usage_intervals_by_account ON usage_intervals (account_id, start_ms);
    CREATE INDEX IF NOT EXISTS usage_intervals_open ON usage_intervals (account_id, end_ms) WHERE end_ms IS NULL;`);
  }

  /**
   * Closes what a previous process left open (it stopped without closing its sockets): the end is unknown,
   * so such rows end where they started and add no usage.
   */
  closeAbandoned(): number {
    const closed = this.#db.prepare('UPDATE usage_intervals SET end_ms = start_ms WHERE end_ms IS NULL').run().changes;
    this.#db.prepare('UPDATE usage_connections SET closed_ms = opened_ms WHERE closed_ms IS NULL').run();
    return closed;
  }

  open(accountId: string, region: string): MeteredConnection {
    const db = this.#db;
    const clock = this.now;
    const connectionId = Number(db.prepare('INSERT INTO usage_connections (account_id, region, opened_ms) VALUES (?, ?, ?)').run(accountId, region, clock()).lastInsertRowid);
    let model: string | undefined;
    let interval: number | undefined;
    let closed = false;
    const endInterval = (at: number): void => {
      if (interval !== undefined) db.prepare('UPDATE usage_intervals SET end_ms = ? WHERE id = ?').run(at, interval);
      interval = undefined;
    };
    return {
      setModel(next: string) {
        if (closed || next === model) return;
        const at = clock();
        db.transaction(() => {
          endInterval(at);
          interval = Number(
            db.prepare('INSERT INTO usage_intervals (connection_id, account_id, region, model, start_ms) VALUES (?, ?, ?, ?, ?)').run(connectionId, accountId, region, next, at)
              .lastInsertRowid,
          );
        })();
        model = next;
      },
      close() {
        if (closed) return;
        closed = true;
        const at = clock();
        db.transaction(() => {
          endInterval(at);
          db.prepare('UPDATE usage_connections SET closed_ms = ? WHERE id = ?').run(at, connectionId);
        })();
      },
    };
  }

  /** The account's intervals overlapping [startMs, endMs), optionally of one model and/or region. */
  intervals(accountId: string, startMs: number, endMs: number, filter: { modelId?: string | undefined; region?: string | undefined } = {}): UsageInterval[] {
    const rows = this.#db
      .prepare(
        `SELECT model, region, start_ms, end_ms FROM usage_intervals
         WHERE account_id = @accountId AND start_ms < @endMs AND (end_ms IS NULL OR end_ms > @startMs)
           AND (@modelId IS NULL OR model = @modelId) AND (@region IS NULL OR region = @region)`,
      )
      .all({ accountId, startMs, endMs, modelId: filter.modelId ?? null, region: filter.region ?? null }) as Array<{
      model: string;
      region: string;
      start_ms: number;
      end_ms: number | null;
    }>;
    return rows.map((r) => ({ modelId: r.model, region: r.region, startMs: r.start_ms, endMs: r.end_ms ?? undefined }));
  }

  /** Open connections of the account per model (only models with at least one). */
  liveCounts(accountId: string): Map<string, number> {
    const rows = this.#db
      .prepare('SELECT model, COUNT(*) AS n FROM usage_intervals WHERE account_id = ? AND end_ms IS NULL GROUP BY model')
      .all(accountId) as Array<{ model: string; n: number }>;
    return new Map(rows.map((r) => [r.model, r.n]));
  }
}
