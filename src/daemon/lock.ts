import Database from 'better-sqlite3';

/**
 * Exactly one daemon per AMUX_HOME (ADR 0001): an exclusive SQLite lock on `daemon.lock`,
 * i.e. an fcntl lock the kernel drops when the process dies, even on `kill -9`. So a crashed
 * daemon never blocks the next one, and of 50 CLIs starting daemons at once, one wins.
 */
export function acquireDaemonLock(file: string): Database.Database | null {
  const db = new Database(file, { timeout: 0 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    return db;
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') return null;
    throw err;
  }
}
