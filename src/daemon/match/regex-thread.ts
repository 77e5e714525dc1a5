import { Worker } from 'node:worker_threads';
import { AmuxError } from '../../errors.js';
import { THREAD_SOURCE } from './thread-source.js';

/** How long one match may run before its thread is ended and its wait fails (ADR 0029). */
export const MATCH_BUDGET_MS = 5000;

interface Match {
  id: number;
  source: string;
  text: string;
  resolve: (index: number) => void;
  reject: (err: Error) => void;
}

/**
 * Runs the regular expressions of `wait --until output:REGEX` off the daemon's main thread, one
 * match at a time on one worker thread, each within MATCH_BUDGET_MS: a match past it ends the
 * thread (V8 interrupts even a backtracking expression) and fails with `invalid_argument`; the
 * next match gets a new thread. So no expression can hold the event loop that answers every
 * other client (ADR 0029). The thread starts at the first match.
 */
export class RegexThread {
  private worker: Worker | null = null;
  private online = false;
  private readonly queue: Match[] = [];
  private current: Match | null = null;
  private timer: NodeJS.Timeout | null = null;
  private nextId = 1;

  constructor(private readonly budgetMs = MATCH_BUDGET_MS) {}

  /** The index of the first match of `source` (multi-line) in `text`, or -1. */
  match(source: string, text: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, source, text, resolve, reject });
      this.pump();
    });
  }

  /** Ends the thread; matches not answered fail. */
  stop(): void {
    const pending = [...(this.current ? [this.current] : []), ...this.queue.splice(0)];
    this.end();
    for (const m of pending) m.reject(new AmuxError('operation_failed', 'the daemon is stopping'));
  }

  private pump(): void {
    if (this.current || this.queue.length === 0) return;
    const worker = this.worker ?? this.spawn();
    if (!this.online) return; // 'online' pumps again
    const m = this.queue.shift() as Match;
    this.current = m;
    this.timer = setTimeout(() => this.overrun(m), this.budgetMs);
    worker.postMessage({ id: m.id, source: m.source, text: m.text });
  }

  private spawn(): Worker {
    const worker = new Worker(THREAD_SOURCE, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 256 } });
    worker.unref();
    worker.on('online', () => {
      if (this.worker !== worker) return;
      this.online = true;
      this.pump();
    });
    worker.on('message', (a: { id: number; index?: number; error?: string }) => {
      const m = this.current;
      if (this.worker !== worker || !m || m.id !== a.id) return;
      this.settle();
      if (a.error !== undefined) m.reject(new AmuxError('invalid_argument', `--until output:${m.source}: ${a.error}`));
      else m.resolve(a.index as number);
      this.pump();
    });
    // Out of memory, or a crash of the thread: the match under way fails, the next gets a new thread.
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      const m = this.current;
      this.end();
      m?.reject(new AmuxError('operation_failed', `--until output:${m.source}: the matching thread ended (out of memory?)`));
      this.pump();
    });
    this.worker = worker;
    return worker;
  }

  private overrun(m: Match): void {
    if (this.current !== m) return;
    this.end();
    m.reject(
      new AmuxError(
        'invalid_argument',
        `--until output:${m.source}: one match took longer than ${this.budgetMs / 1000}s (catastrophic backtracking); ` +
          'simplify the expression: without backreferences and lookaround it runs in linear time',
      ),
    );
    this.pump();
  }

  private settle(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.current = null;
  }

  private end(): void {
    this.settle();
    const worker = this.worker;
    this.worker = null;
    this.online = false;
    void worker?.terminate();
  }
}
