/** Numbered schema migrations; `PRAGMA user_version` records how many have run. Append only. */
export const MIGRATIONS: readonly string[] = [
  /* 1 */ `
  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    name TEXT,
    status TEXT NOT NULL,
    command TEXT,
    cwd TEXT NOT NULL,
    exit_code INTEGER,
    signal TEXT,
    error TEXT,
    created_at INTEGER NOT NULL,
    started_at INTEGER,
    ended_at INTEGER,
    last_activity_at INTEGER,
    pid INTEGER,
    pane_id TEXT,
    nonce TEXT NOT NULL,
    auto_remove INTEGER NOT NULL DEFAULT 0,
    removed_at INTEGER,
    last_output TEXT,
    log_bytes INTEGER NOT NULL DEFAULT 0,
    log_truncated INTEGER NOT NULL DEFAULT 0,
    log_chunk_bytes INTEGER NOT NULL,
    log_cap_bytes INTEGER NOT NULL,
    has_command INTEGER NOT NULL
  );
  CREATE UNIQUE INDEX sessions_live_name ON sessions(name) WHERE removed_at IS NULL AND name IS NOT NULL;
  CREATE INDEX sessions_created ON sessions(created_at);
  CREATE INDEX sessions_status ON sessions(status) WHERE removed_at IS NULL;
  CREATE TABLE jobs (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id),
    seq INTEGER NOT NULL,
    command TEXT NOT NULL,
    background INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL,
    exit_code INTEGER,
    signal TEXT,
    pid INTEGER,
    started_at INTEGER NOT NULL,
    ended_at INTEGER,
    UNIQUE (session_id, seq)
  );
  CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    job_id TEXT,
    type TEXT NOT NULL,
    data TEXT NOT NULL DEFAULT '{}',
    created_at INTEGER NOT NULL
  );
  CREATE INDEX events_session ON events(session_id, id);
  CREATE INDEX events_created ON events(created_at);
  `,
  /* 2: jobs of \`amux exec\` (issue 3): how they run and what their captured streams hold. */ `
  ALTER TABLE jobs ADD COLUMN tty INTEGER NOT NULL DEFAULT 1;
  ALTER TABLE jobs ADD COLUMN timeout_ms INTEGER;
  ALTER TABLE jobs ADD COLUMN error TEXT;
  ALTER TABLE jobs ADD COLUMN stdout_bytes INTEGER;
  ALTER TABLE jobs ADD COLUMN stderr_bytes INTEGER;
  ALTER TABLE jobs ADD COLUMN stdout_truncated INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE jobs ADD COLUMN stderr_truncated INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX jobs_running ON jobs(session_id) WHERE status = 'running';
  `,
  /* 3: the lifecycle (issue 4): timeouts, the queue, retention. */ `
  ALTER TABLE sessions ADD COLUMN timeout_ms INTEGER;
  ALTER TABLE sessions ADD COLUMN idle_timeout_ms INTEGER;
  ALTER TABLE sessions ADD COLUMN closed_at INTEGER;
  CREATE INDEX sessions_pending ON sessions(created_at) WHERE status = 'pending';
  CREATE INDEX sessions_ended ON sessions(ended_at) WHERE ended_at IS NOT NULL;
  CREATE INDEX sessions_unclosed ON sessions(ended_at) WHERE closed_at IS NULL AND removed_at IS NULL;
  CREATE INDEX sessions_limits ON sessions(status) WHERE timeout_ms IS NOT NULL OR idle_timeout_ms IS NOT NULL;
  `,
  /* 4: status from evidence (ADR 0015): why a session has its status. */ `
  ALTER TABLE sessions ADD COLUMN reason TEXT;
  `,
  /* 5: restart, labels, delayed starts (ADR 0033). \`spec\` is what \`restart\` needs to start the same
     session again (argv or command line, environment, umask) as JSON; it is cleared when the session is removed. */ `
  ALTER TABLE sessions ADD COLUMN labels TEXT NOT NULL DEFAULT '{}';
  ALTER TABLE sessions ADD COLUMN restart_of TEXT;
  ALTER TABLE sessions ADD COLUMN restarts INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE sessions ADD COLUMN restart_policy TEXT;
  ALTER TABLE sessions ADD COLUMN start_after INTEGER;
  ALTER TABLE sessions ADD COLUMN spec TEXT;
  ALTER TABLE sessions ADD COLUMN group_name TEXT;
  ALTER TABLE sessions ADD COLUMN after_ids TEXT NOT NULL DEFAULT '[]';
  ALTER TABLE sessions ADD COLUMN on_end TEXT;
  CREATE TABLE groups (name TEXT PRIMARY KEY, parallel INTEGER NOT NULL, created_at INTEGER NOT NULL);
  `,
  /* 6: attention and declared states (ADR 0034).
     The log is searched for signals from attention_offset on; sessions of before start from what their row says was written. */ `
  ALTER TABLE sessions ADD COLUMN attention_at INTEGER;
  ALTER TABLE sessions ADD COLUMN attention_source TEXT;
  ALTER TABLE sessions ADD COLUMN attention_title TEXT;
  ALTER TABLE sessions ADD COLUMN attention_message TEXT;
  ALTER TABLE sessions ADD COLUMN attention_offset INTEGER NOT NULL DEFAULT 0;
  UPDATE sessions SET attention_offset = log_bytes;
  ALTER TABLE sessions ADD COLUMN declared_state TEXT;
  ALTER TABLE sessions ADD COLUMN declared_message TEXT;
  ALTER TABLE sessions ADD COLUMN declared_at INTEGER;
  ALTER TABLE sessions ADD COLUMN declared_until INTEGER;
  ALTER TABLE sessions ADD COLUMN declared_pgid INTEGER;
  CREATE INDEX sessions_attention ON sessions(attention_at) WHERE attention_at IS NOT NULL;
  `,
  /* 7: how the run a restart replaced ended (src/guides/sessions.md "Restart, labels, groups": one name across restarts), as JSON. */ `
  ALTER TABLE sessions ADD COLUMN previous_end TEXT;
  `,
  /* 8: announced states and the window title (ADR 0049, ADR 0050). */ `
  ALTER TABLE sessions ADD COLUMN declared_source TEXT;
  ALTER TABLE sessions ADD COLUMN title TEXT;
  `,
];
