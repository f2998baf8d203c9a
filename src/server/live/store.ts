/** Durable live services in SQLite (`live_services`): config, persisted run state and timestamps, per account. */
import type { LiveServiceConfig, LiveState } from '../../protocol/live.js';
import type { Db } from '../store.js';

/** A stored service. */
export interface StoredLiveService {
  id: number;
  accountId: string;
  config: LiveServiceConfig;
  state: LiveState;
  startedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: number;
  account_id: string;
  config: string;
  state: LiveState;
  started_at: string | null;
  created_at: string;
  updated_at: string;
}

const fromRow = (r: Row): StoredLiveService => ({
  id: r.id,
  accountId: r.account_id,
  config: JSON.parse(r.config) as LiveServiceConfig,
  state: r.state,
  startedAt: r.started_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Live services of every account. */
export class LiveServiceStore {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
    db.exec(`CREATE TABLE IF NOT EXISTS live_services (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      account_id TEXT NOT NULL,
      config TEXT NOT NULL,
      state TEXT NOT NULL DEFAULT 'stopped',
      started_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX IF NOT EXISTS live_services_account ON live_services(account_id, id);`);
  }

  /** Number of services the account has defined (running or not). */
  count(accountId: string): number {
    return (this.#db.prepare('SELECT COUNT(*) AS n FROM live_services WHERE account_id = ?').get(accountId) as { n: number }).n;
  }

  /** Creates a stopped service. */
  create(accountId: string, config: LiveServiceConfig): StoredLiveService {
    const now = new Date().toISOString();
    const info = this.#db
      .prepare('INSERT INTO live_services (account_id, config, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?)')
      .run(accountId, JSON.stringify(config), 'stopped', now, now);
    return this.get(accountId, Number(info.lastInsertRowid)) as StoredLiveService;
  }

  /** One service of the account. */
  get(accountId: string, id: number): StoredLiveService | undefined {
    const row = this.#db.prepare('SELECT * FROM live_services WHERE account_id = ? AND id = ?').get(accountId, id) as Row | undefined;
    return row && fromRow(row);
  }

  /** The account's services, oldest first, filtered by state and a case-insensitive name substring. */
  list(accountId: string, filter: { state?: LiveState | undefined; search?: string | undefined }): StoredLiveService[] {
    const rows = this.#db.prepare('SELECT * FROM live_services WHERE account_id = ? ORDER BY id').all(accountId) as Row[];
    const needle = filter.search?.toLowerCase();
    return rows
      .map(fromRow)
      .filter((s) => (filter.state === undefined || s.state === filter.state) && (!needle || s.config.name.toLowerCase().includes(needle)));
  }

  /** Every service persisted as running (resumed at startup). */
  running(): StoredLiveService[] {
    return (this.#db.prepare("SELECT * FROM live_services WHERE state = 'running' ORDER BY id").all() as Row[]).map(fromRow);
  }

  /** Replaces the config in place. */
  replaceConfig(accountId: string, id: number, config: LiveServiceConfig): StoredLiveService | undefined {
    this.#db.prepare('UPDATE live_services SET config = ?, updated_at = ? WHERE account_id = ? AND id = ?').run(JSON.stringify(config), new Date().toISOString(), accountId, id);
    return this.get(accountId, id);
  }

  /** Records the run state (`startedAt` set when running, cleared when stopped). */
  setState(accountId: string, id: number, state: LiveState): StoredLiveService | undefined {
    const now = new Date().toISOString();
    this.#db
      .prepare('UPDATE live_services SET state = ?, started_at = ?, updated_at = ? WHERE account_id = ? AND id = ?')
      .run(state, state === 'running' ? now : null, now, accountId, id);
    return this.get(accountId, id);
  }

  /** Deletes; false when there was no such service. */
  delete(accountId: string, id: number): boolean {
    return this.#db.prepare('DELETE FROM live_services WHERE account_id = ? AND id = ?').run(accountId, id).changes > 0;
  }
}
