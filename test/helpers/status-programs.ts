import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';

/** One real program of the status truth table (src/guides/statuses.md), run as its own session. */
export interface ProgramCase {
  name: string;
  /** What must be installed; the case is skipped, and says so, without it. */
  needs: string[];
  command: string;
  /**
   * What a person would say it is doing, at every look once it has started. Nothing ends by itself
   * while watched (time limits far beyond the watch, which a busy machine stretches), but `mayEnd`.
   */
  expect: 'idle' | 'working';
  reason?: RegExp;
  /** The command name `foreground` must give, when the case is about it. */
  foreground?: string;
  /**
   * How long it takes at least to start (default 500 ms), on an idle machine: a program that computes
   * while it starts (node, gdb, npm, man formatting a page) is rightly `working` until it waits. Its
   * looks are checked from the first one after this that shows `expect` (a busy machine takes longer).
   */
  startMs?: number;
  /** It ends by itself within the watch (make's recipe): `completed` is right then. */
  mayEnd?: boolean;
  /**
   * Judged from its first look with the expected status (not before `startMs`): a program that
   * computes for seconds while it starts on a loaded machine, and then must hold that status.
   */
  fromFirst?: boolean;
}

/** Servers and files the programs talk to: a server that never answers, one that chats, fixture scripts. */
export class Fixtures {
  readonly dir = mkdtempSync('/tmp/amux-programs-');
  private readonly servers: Server[] = [];
  private readonly sockets = new Set<Socket>();
  private readonly timers: NodeJS.Timeout[] = [];
  /** Accepts and never answers: a client waits for it. */
  slowPort = 0;
  /** Sends a byte every 200 ms to each client. */
  chattyPort = 0;
  /** Holds `held.flock` (flock) and `held.lockf` (fcntl) until the tests end: a waiter waits for good. */
  private holder: ChildProcess | null = null;
  /** Holds `fifo` open for writing, writing nothing: a reader waits for good. */
  private fifoWriter: number | null = null;

  async start(): Promise<void> {
    this.slowPort = await this.listen(() => undefined);
    this.chattyPort = await this.listen((s) => this.timers.push(setInterval(() => s.write('x'), 200)));
    const files: Record<string, string> = {
      'followed.log': 'one line\n',
      Makefile: 'all:\n\t@echo step 1\n\tsleep 6\n\t@echo step 2\n',
      'thread.py': 'import threading\ndef spin():\n    while True: pass\nt = threading.Thread(target=spin)\nt.start()\nt.join()\n',
      'worker.js': "const { Worker } = require('worker_threads');\nnew Worker('for (;;) {}', { eval: true });\n",
      'server.js': "require('http').createServer((q, r) => r.end('ok')).listen(0, '127.0.0.1');\n",
      'package.json': JSON.stringify({ name: 'dev', version: '1.0.0', private: true, scripts: { dev: 'node server.js' } }),
      'accept.py': "import socket\ns = socket.socket()\ns.bind(('127.0.0.1', 0))\ns.listen()\ns.accept()\n",
      // An agent's TUI or ssh at a remote prompt: waits on the terminal and its connection at once,
      // and reads the connection with read() as ssh, node and TLS clients do (rchar counts it).
      'converse.py': [
        'import os, socket, select, sys',
        "s = socket.create_connection(('127.0.0.1', int(sys.argv[1])))",
        'while True:',
        '    r, _, _ = select.select([sys.stdin, s], [], [])',
        '    if s in r: os.read(s.fileno(), 4096)',
        '    if sys.stdin in r: sys.stdin.readline()',
        '',
      ].join('\n'),
      // ssh's password prompt: it reads /dev/tty while its connection is open.
      'prompt.py': [
        'import os, socket, sys',
        "s = socket.create_connection(('127.0.0.1', int(sys.argv[1])))",
        "os.write(2, b'password: ')",
        "os.read(os.open('/dev/tty', os.O_RDWR), 100)",
        '',
      ].join('\n'),
    };
    Object.assign(files, FOLLOWED);
    for (const [name, text] of Object.entries(files)) writeFileSync(join(this.dir, name), text);
    execFileSync('mkfifo', [join(this.dir, 'fifo')]);
    // Read and write: opened at once, and the reader's open does not wait for a writer.
    this.fifoWriter = openSync(join(this.dir, 'fifo'), 'r+');
    await this.holdLocks();
  }

  /** A process outside every session that holds both locks until its stdin closes (the test's end). */
  private holdLocks(): Promise<void> {
    const script = [
      'import fcntl, sys',
      "f = open('held.flock', 'w'); fcntl.flock(f, fcntl.LOCK_EX)",
      "g = open('held.lockf', 'w'); fcntl.lockf(g, fcntl.LOCK_EX)",
      "print('held', flush=True)",
      'sys.stdin.read()',
    ].join('\n');
    const holder = spawn('python3', ['-c', script], { cwd: this.dir, stdio: ['pipe', 'pipe', 'ignore'] });
    this.holder = holder;
    return new Promise((resolve) => {
      holder.on('error', () => resolve()); // no python3: its cases are skipped
      holder.stdout!.once('data', () => resolve());
    });
  }

  private listen(onConnection: (s: Socket) => void): Promise<number> {
    const server = createServer((s) => {
      this.sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => this.sockets.delete(s));
      onConnection(s);
    });
    this.servers.push(server);
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  }

  async stop(): Promise<void> {
    this.holder?.stdin?.end();
    this.holder?.kill();
    if (this.fifoWriter !== null) closeSync(this.fifoWriter);
    for (const t of this.timers) clearInterval(t);
    for (const s of this.sockets) s.destroy();
    await Promise.all(this.servers.map((s) => new Promise((r) => s.close(r))));
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }); // a program ending as it goes may still write in it
  }

  /** The truth table: every program issue 19 named, and more of each kind. */
  cases(): ProgramCase[] {
    const slow = this.slowPort;
    const cpu = /^cpu$/;
    return [
      // Waiting for you: the terminal alone, with or without a time limit.
      { name: 'python3 REPL', needs: ['python3'], command: 'python3', expect: 'idle', reason: /reading the terminal/, startMs: 2000 },
      { name: 'node REPL (epoll with a time limit)', needs: ['node'], command: 'node', expect: 'idle', reason: /reading the terminal/, startMs: 3000 },
      { name: 'vim', needs: ['vim'], command: 'vim -u NONE -i NONE -n', expect: 'idle', startMs: 1000 },
      { name: 'vi', needs: ['vi'], command: 'vi', expect: 'idle', startMs: 1000 },
      { name: 'read -p', needs: ['bash'], command: `bash -c 'read -p "Continue? " x'`, expect: 'idle', reason: /reading the terminal/ },
      { name: 'read -t 600 (a time limit)', needs: ['bash'], command: `bash -c 'read -t 600 -p "Quick: " x'`, expect: 'idle', reason: /reading the terminal/, startMs: 1500 },
      { name: 'less', needs: ['less'], command: 'less /etc/services', expect: 'idle' },
      { name: 'more', needs: ['more'], command: 'more /etc/services', expect: 'idle' },
      { name: 'man (a pager behind a pipeline)', needs: ['man'], command: 'man ls', expect: 'idle', startMs: 4000 },
      { name: 'yes | less', needs: ['less'], command: 'yes | less', expect: 'idle', foreground: 'less' },
      { name: 'cat', needs: ['cat'], command: 'cat', expect: 'idle' },
      { name: 'bc', needs: ['bc'], command: 'bc -q', expect: 'idle' },
      { name: 'sqlite3', needs: ['sqlite3'], command: 'sqlite3', expect: 'idle' },
      { name: 'gdb (a REPL with threads)', needs: ['gdb'], command: 'gdb -q -nx', expect: 'idle', startMs: 3000 },
      { name: 'a password prompt with a socket open (as ssh)', needs: ['python3'], command: `python3 prompt.py ${slow}`, expect: 'idle', reason: /reading the terminal/, startMs: 2500 },
      { name: 'terminal and a quiet connection (an agent TUI)', needs: ['python3'], command: `python3 converse.py ${slow}`, expect: 'idle', startMs: 3500 }, // + 1 s without bytes
      // Computing, in any thread.
      { name: 'python3 -c CPU loop', needs: ['python3'], command: `nice -n 19 python3 -c 'while True: pass'`, expect: 'working', reason: cpu },
      { name: 'head | xz -T2 (threads compute)', needs: ['xz', 'head'], command: `nice -n 19 bash -c 'head -c 6000M /dev/zero | xz -T2 -9 -c >/dev/null'`, expect: 'working', reason: cpu, foreground: 'xz' },
      { name: 'zstd -T2', needs: ['zstd'], command: 'nice -n 19 zstd -T2 -19 -c </dev/zero >/dev/null', expect: 'working', reason: cpu },
      { name: 'gzip -9', needs: ['gzip'], command: 'nice -n 19 gzip -9 -c </dev/zero >/dev/null', expect: 'working', reason: cpu },
      { name: 'python worker thread, main in join()', needs: ['python3'], command: 'nice -n 19 python3 thread.py', expect: 'working', reason: cpu },
      { name: 'node worker thread, main in its event loop', needs: ['node'], command: 'nice -n 19 node worker.js', expect: 'working', reason: cpu },
      // Busy but quiet: timers, files, servers, the network.
      { name: 'sleep 600', needs: ['sleep'], command: 'sleep 600', expect: 'working', reason: /sleeping/ },
      // `output changed` lasts as long as new bytes: then the kernel's reason
      { name: 'a line, then sleep 600', needs: ['sleep'], command: 'echo started; sleep 600', expect: 'working', reason: /sleeping/ },
      { name: 'node with a timer pending', needs: ['node'], command: `node -e 'setInterval(() => {}, 5000)'`, expect: 'working' },
      { name: 'watch', needs: ['watch'], command: 'watch -n 2 date', expect: 'working' },
      { name: 'a \\r progress bar', needs: ['bash'], command: `bash -c 'i=0; while :; do printf "\\r%d%%" $((i++ % 100)); sleep 0.2; done'`, expect: 'working' },
      { name: 'make whose recipe sleeps 6 s', needs: ['make'], command: 'make', expect: 'working', mayEnd: true },
      { name: 'a line every 4.5 s', needs: ['bash'], command: 'while :; do echo tick; sleep 4.5; done', expect: 'working' },
      { name: 'tail -f', needs: ['tail'], command: 'tail -f followed.log', expect: 'working', reason: /watching files/ },
      { name: 'python3 -m http.server', needs: ['python3'], command: 'python3 -m http.server 0 --bind 127.0.0.1', expect: 'working', reason: /serving/ },
      { name: 'node http server', needs: ['node'], command: 'node server.js', expect: 'working', reason: /serving/ },
      { name: 'npm run dev', needs: ['npm'], command: 'npm run dev', expect: 'working' },
      { name: 'a shell server (accept in a loop)', needs: ['python3'], command: 'while :; do python3 accept.py; done', expect: 'working' },
      { name: 'curl waiting for a slow answer', needs: ['curl'], command: `curl -s http://127.0.0.1:${slow}/`, expect: 'working', reason: /network/ },
      { name: 'wget waiting for a slow answer', needs: ['wget'], command: `wget -q -O /dev/null http://127.0.0.1:${slow}/`, expect: 'working', reason: /network/ },
      { name: 'ssh waiting for the server', needs: ['ssh'], command: `ssh -F /dev/null -o StrictHostKeyChecking=no -p ${slow} 127.0.0.1`, expect: 'working', reason: /network/ },
      { name: 'openssl s_client in its handshake', needs: ['openssl'], command: `openssl s_client -connect 127.0.0.1:${slow}`, expect: 'working', reason: /network/ },
      { name: 'terminal and a chatty connection', needs: ['python3'], command: `python3 converse.py ${this.chattyPort}`, expect: 'working', reason: /network/ },
      // ADR 0048: evidence that follows the work. Each was wrong before it (said at its end). Python's
      // start-up computes for seconds on a loaded machine: the rows count from 3–4 s, the idle ones
      // from their first idle look (a build that never says idle fails them all the same).
      // The terminal beside a listening socket of its own, as Codex's TUI: waiting for you. (serving)
      { name: 'a prompt beside its own listening socket', needs: ['python3'], command: 'python3 listen.py', expect: 'idle', reason: /reading the terminal/, startMs: 3000, fromFirst: true },
      // A parent waiting on a socket pair to its child, which reads the terminal (Gemini's relaunch). (network)
      { name: 'a parent relaying to its child on the terminal', needs: ['python3', 'ss'], command: 'python3 relay.py', expect: 'idle', reason: /reading the terminal/, startMs: 3500, fromFirst: true },
      // The same in node, as Gemini CLI relaunches itself: a parent with a timer pending (its event
      // loop's wait has a time limit) and a thread with one too, an IPC channel to its child. (sleeping)
      { name: 'a node parent with a timer, its child on the terminal', needs: ['node', 'ss'], command: 'node relay.js', expect: 'idle', reason: /reading the terminal/, startMs: 3500, fromFirst: true },
      // asyncio awaiting stdin, redrawing a clock: its self-pipe socket pair is plumbing. (network)
      { name: 'asyncio awaiting stdin with a clock', needs: ['python3', 'ss'], command: 'python3 aio.py', expect: 'idle', reason: /reading the terminal/, startMs: 4000, fromFirst: true },
      // A tool on a pty of its own while the parent copies the terminal (node-pty, pty.spawn). (idle)
      { name: 'a child on a pty of its own', needs: ['python3'], command: 'python3 ownpty.py', expect: 'working', reason: /sleeping/, startMs: 3000 },
      // Main thread on input(), another receiving a stream with recv(). (idle)
      { name: 'a thread receiving while main reads the terminal', needs: ['python3'], command: `python3 stream.py ${this.chattyPort}`, expect: 'working', reason: /network/, startMs: 3000 },
      { name: 'a thread on a quiet connection while main reads the terminal', needs: ['python3'], command: `python3 stream.py ${slow}`, expect: 'idle', reason: /reading the terminal/, startMs: 4500, fromFirst: true },
      // At input(), a timer computing for 0.4 s (wall clock) every 2 s: a blip, not work. (working (cpu) at times)
      { name: 'CPU blips at a prompt', needs: ['python3'], command: 'python3 blip.py', expect: 'idle', reason: /reading the terminal/, startMs: 3500, fromFirst: true },
      // A lock another process holds: flock(2), fcntl(2). (the screen: idle after 3 s)
      { name: 'flock waiting for a lock', needs: ['python3'], command: 'python3 lock.py flock', expect: 'working', reason: /^lock$/, startMs: 3000 },
      { name: 'lockf (fcntl) waiting for a lock', needs: ['python3'], command: 'python3 lock.py lockf', expect: 'working', reason: /^lock$/, startMs: 3000 },
      // A named pipe with a writer that writes nothing. (the screen: idle after 3 s)
      { name: 'cat of a FIFO', needs: ['cat'], command: 'cat fifo', expect: 'working', reason: /^pipe$/ },
      // ADR 0061: the terminal and an inotify watch in one wait (a watcher with keys). (watching files)
      { name: 'a prompt beside an inotify watch', needs: ['python3'], command: 'python3 watchkeys.py', expect: 'idle', reason: /reading the terminal/, startMs: 3000, fromFirst: true },
      // The terminal and a connection whose request has had no answer yet. (idle after 1 s)
      { name: 'terminal and a request awaiting its reply', needs: ['python3', 'ss'], command: `python3 request.py ${slow}`, expect: 'working', reason: /network/, startMs: 3000 },
    ];
  }
}

/** The programs of ADR 0048's rows: each holds its situation until the session is killed. */
const FOLLOWED: Record<string, string> = {
  // ADR 0061: a watcher with keys, one select() on the terminal and an inotify watch of its directory.
  'watchkeys.py': [
    'import ctypes, os, select, sys',
    "libc = ctypes.CDLL(None, use_errno=True)",
    'fd = libc.inotify_init()',
    "libc.inotify_add_watch(fd, b'.', 0x100 | 0x200 | 0x2)",
    'while True:',
    '    r, _, _ = select.select([sys.stdin, fd], [], [])',
    '    if fd in r: os.read(fd, 4096)',
    '    if sys.stdin in r: sys.stdin.readline()',
    '',
  ].join('\n'),
  'listen.py': [
    'import select, socket, sys',
    "l = socket.socket(); l.bind(('127.0.0.1', 0)); l.listen()",
    'while True:',
    '    r, _, _ = select.select([sys.stdin, l], [], [])',
    '    if sys.stdin in r: sys.stdin.readline()',
    '',
  ].join('\n'),
  'relay.py': [
    'import os, select, socket, sys',
    'a, b = socket.socketpair()',
    'if os.fork() == 0:',
    '    a.close()',
    '    while True: b.send((input() + "\\n").encode())',
    'b.close()',
    'while True:',
    '    select.select([a], [], [])',
    '    if not a.recv(4096): break',
    '',
  ].join('\n'),
  'relay.js': [
    "const { fork } = require('child_process');",
    "if (process.argv[2] === 'child') {",
    "  setInterval(() => {}, 3000);",
    "  process.stdin.on('data', (d) => process.send(String(d)));",
    '} else {',
    "  setInterval(() => {}, 8000);",
    "  new (require('worker_threads').Worker)('setInterval(() => {}, 5000)', { eval: true });",
    "  fork(__filename, ['child']).on('message', () => {});",
    '}',
    '',
  ].join('\n'),
  'aio.py': [
    'import asyncio, sys, time',
    'async def main():',
    '    asyncio.get_running_loop().add_reader(sys.stdin, sys.stdin.readline)',
    '    while True:',
    "        print('\\r' + time.strftime('%H:%M:%S'), end='', flush=True)",
    '        await asyncio.sleep(0.5)',
    'asyncio.run(main())',
    '',
  ].join('\n'),
  'ownpty.py': "import pty\npty.spawn(['sleep', '100000'])\n",
  'stream.py': [
    'import socket, sys, threading',
    'def pull():',
    "    s = socket.create_connection(('127.0.0.1', int(sys.argv[1])))",
    '    while s.recv(100): pass',
    'threading.Thread(target=pull, daemon=True).start()',
    'while True: input()',
    '',
  ].join('\n'),
  'blip.py': [
    'import threading, time',
    'def tick():',
    '    while True:',
    '        time.sleep(2)',
    '        end = time.monotonic() + 0.4',
    '        while time.monotonic() < end: pass',
    'threading.Thread(target=tick, daemon=True).start()',
    'while True: input()',
    '',
  ].join('\n'),
  'lock.py': [
    'import fcntl, sys',
    "f = open('held.' + sys.argv[1], 'w')",
    "fcntl.flock(f, fcntl.LOCK_EX) if sys.argv[1] == 'flock' else fcntl.lockf(f, fcntl.LOCK_EX)",
    '',
  ].join('\n'),
  'request.py': [
    'import select, socket, sys',
    "s = socket.create_connection(('127.0.0.1', int(sys.argv[1])))",
    "s.sendall(b'GET / HTTP/1.0\\r\\n\\r\\n')",
    'while True:',
    '    r, _, _ = select.select([sys.stdin, s], [], [])',
    '    if s in r: s.recv(4096)',
    '    if sys.stdin in r: sys.stdin.readline()',
    '',
  ].join('\n'),
};
