import Database from 'better-sqlite3';
import { AmuxError, toAmuxError } from '../errors.js';
import { MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

/** Opens the store in WAL mode and runs pending migrations in one transaction each. */
export function openDatabase(file: string): Db {
  try {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('foreign_keys = ON');
    migrate(db);
    return db;
  } catch (err) {
    throw toAmuxError(err);
  }
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new AmuxError('storage_error', `the database is at schema version ${current}, newer than this amux knows (${MIGRATIONS.length}); upgrade amux or use another AMUX_HOME`);
  }
  for (let v = current; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
