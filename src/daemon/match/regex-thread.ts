import { Worker } from 'node:worker_threads';
import { AmuxError } from '../../errors.js';
import { FairQueue } from './fair-queue.js';
import { THREAD_SOURCE } from './thread-source.js';

/** How long one match may run before its thread is ended and its wait fails (ADR 0029). */
export const MATCH_BUDGET_MS = 5000;

/**
 * How long a match may hold the quick thread (ADR 0056): longer, and it goes on (or again) in the
 * thread of long matches. Above what a usual look costs (up to ~0.3 s: 256 KiB in the linear engine).
 */
export const QUICK_SLICE_MS = 400;

/** The slice while other clients wait for the quick thread: a costly match gives way sooner. */
export const CONTENDED_SLICE_MS = 100;

interface Match {
  id: number;
  source: string;
  text: string;
  client: object;
  resolve: (index: number) => void;
  reject: (err: Error) => void;
}

/** One worker thread and the match it runs. */
interface Lane {
  worker: Worker | null;
  online: boolean;
  current: Match | null;
  /** When `current` began, in this lane or the one it came from. */
  since: number;
  timer: NodeJS.Timeout | null;
  /** The slice or budget of `current`, timed from when its thread says it started it (ADR 0058). */
  pending: { ms: number; late: (m: Match) => void } | null;
}

const lane = (): Lane => ({ worker: null, online: false, current: null, since: 0, timer: null, pending: null });

/** Anonymous matches (no client named) share one turn. */
const NOBODY = {};

/**
 * Runs the regular expressions of `wait --until output:REGEX` off the daemon's main thread
 * (ADR 0029), in two worker threads and a spare (ADR 0056). Each match starts in the quick thread,
 * where it may run QUICK_SLICE_MS (CONTENDED_SLICE_MS while other clients wait); one that runs longer goes on in the long thread (the thread itself is
 * handed over when that one is free; else the match is stopped and queued for it), where it has
 * the rest of its MATCH_BUDGET_MS. Both threads serve their queues by turns of client (one wait
 * request), and a client's expression that went long once starts in the long thread next time.
 * So an expensive expression delays another client's cheap one by at most one slice per client
 * ahead of it, never by a budget; a match past its budget ends its thread and fails with
 * `invalid_argument`. Threads start at their first match.
 */
export class RegexThread {
  private readonly quickQueue = new FairQueue<Match>();
  private readonly longQueue = new FairQueue<Match>();
  private quick = lane();
  private long = lane();
  /** A thread kept started, to take the quick one's place at once when that is ended for a costly match. */
  private spare = lane();
  /** Per client, the expressions that went past the slice. */
  private readonly wentLong = new WeakMap<object, Set<string>>();
  private nextId = 1;

  constructor(
    private readonly budgetMs = MATCH_BUDGET_MS,
    private readonly sliceMs = Math.min(QUICK_SLICE_MS, budgetMs),
  ) {}

  /** The index of the first match of `source` (multi-line) in `text`, or -1. `client`: whose turn it takes (a wait request). */
  match(source: string, text: string, client: object = NOBODY): Promise<number> {
    return new Promise((resolve, reject) => {
      const m = { id: this.nextId++, source, text, client, resolve, reject };
      if (this.wentLong.get(client)?.has(source)) this.longQueue.push(client, m);
      else this.quickQueue.push(client, m);
      this.pump();
    });
  }

  /** Ends the threads; matches not answered fail. */
  stop(): void {
    const pending = [this.quick.current, this.long.current, ...this.quickQueue.drain(), ...this.longQueue.drain()];
    this.end(this.quick);
    this.end(this.long);
    this.end(this.spare);
    for (const m of pending) m?.reject(new AmuxError('operation_failed', 'the daemon is stopping'));
  }

  private pump(): void {
    // Others waiting for the quick thread: the next match's slice is shorter.
    const slice = this.quickQueue.size > 1 ? Math.min(this.sliceMs, CONTENDED_SLICE_MS) : this.sliceMs;
    this.start(this.quick, this.quickQueue, slice, (m) => this.slice(m));
    this.start(this.long, this.longQueue, this.budgetMs, (m) => this.overrun(m));
  }

  private start(l: Lane, queue: FairQueue<Match>, ms: number, late: (m: Match) => void): void {
    if (l.current || queue.size === 0) return;
    const worker = l.worker ?? this.spawn(l);
    if (!l.online) return; // 'online' pumps again
    const m = queue.shift()!;
    l.current = m;
    l.since = Date.now();
    // Timed from the thread's word that it started (a busy machine may not run it for a while), not from here.
    l.pending = { ms, late };
    worker.postMessage({ id: m.id, source: m.source, text: m.text });
  }

  /**
   * A slice or budget ran out: acted on after the answers already delivered (setImmediate runs after
   * the poll phase, a timer before it), so a main thread woken late does not take a match that
   * answered meanwhile for a costly one (ADR 0058: at load 11, 3 of 8 cheap matches went long).
   */
  private arm(l: Lane, m: Match, ms: number, late: (m: Match) => void): void {
    if (l.timer) clearTimeout(l.timer);
    l.timer = setTimeout(() => setImmediate(() => late(m)), ms);
  }

  /** Its slice is over: the match goes on in the long thread, handed over with it when that is free. */
  private slice(m: Match): void {
    if (this.quick.current !== m) return;
    let seen = this.wentLong.get(m.client);
    if (!seen) this.wentLong.set(m.client, (seen = new Set()));
    if (seen.size < 64) seen.add(m.source);
    if (!this.long.current && this.longQueue.size === 0) {
      // The two swap threads: the match runs on where it is, now as the long one.
      [this.quick, this.long] = [this.long, this.quick];
      this.long.pending = null;
      this.arm(this.long, m, Math.max(0, this.budgetMs - (Date.now() - this.long.since)), (x) => this.overrun(x));
    } else {
      this.end(this.quick);
      this.longQueue.push(m.client, m);
      // The spare takes its place at once (a thread takes ~0.1 s to start, more on a busy machine), and a new spare starts.
      [this.quick, this.spare] = [this.spare, this.quick];
      if (!this.spare.worker) this.spawn(this.spare);
    }
    this.pump();
  }

  private overrun(m: Match): void {
    if (this.long.current !== m) return;
    this.end(this.long);
    m.reject(
      new AmuxError(
        'invalid_argument',
        `--until output:${m.source}: one match took longer than ${this.budgetMs / 1000}s (catastrophic backtracking); ` +
          'simplify the expression: without backreferences and lookaround it runs in linear time',
      ),
    );
    this.pump();
  }

  /** The lane that holds `worker` now (threads move between lanes), or null. */
  private laneOf(worker: Worker): Lane | null {
    for (const l of [this.quick, this.long, this.spare]) if (l.worker === worker) return l;
    return null;
  }

  private spawn(l: Lane): Worker {
    const worker = new Worker(THREAD_SOURCE, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 256 } });
    worker.unref();
    worker.on('online', () => {
      const at = this.laneOf(worker);
      if (!at) return;
      at.online = true;
      this.pump();
    });
    worker.on('message', (a: { id: number; started?: boolean; index?: number; error?: string }) => {
      const at = this.laneOf(worker);
      const m = at?.current;
      if (!at || !m || m.id !== a.id) return;
      if (a.started) {
        if (at.pending) this.arm(at, m, at.pending.ms, at.pending.late);
        at.pending = null;
        return;
      }
      this.settle(at);
      if (a.error !== undefined) m.reject(new AmuxError('invalid_argument', `--until output:${m.source}: ${a.error}`));
      else m.resolve(a.index as number);
      this.pump();
    });
    // Out of memory, or a crash of the thread: the match under way fails, the next gets a new thread.
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      const at = this.laneOf(worker);
      if (!at) return;
      const m = at.current;
      this.end(at);
      m?.reject(new AmuxError('operation_failed', `--until output:${m.source}: the matching thread ended (out of memory?)`));
      this.pump();
    });
    l.worker = worker;
    return worker;
  }

  private settle(l: Lane): void {
    if (l.timer) clearTimeout(l.timer);
    l.timer = null;
    l.pending = null;
    l.current = null;
  }

  private end(l: Lane): void {
    this.settle(l);
    const worker = l.worker;
    l.worker = null;
    l.online = false;
    void worker?.terminate();
  }
}
