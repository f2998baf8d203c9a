/**
 * Durable state: one embedded SQLite database (WAL mode) under the data directory. Each area creates its
 * own tables idempotently when it registers (`CREATE TABLE IF NOT EXISTS`).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** The database handle type used across the server. */
export type Db = Database.Database;

/** Opens (creating if needed) `DIR/voxpipe.db`; `:memory:` gives a throwaway database. */
export function openDatabase(dataDir: string): Db {
  if (dataDir === ':memory:') return new Database(':memory:');
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, 'voxpipe.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  return db;
}
