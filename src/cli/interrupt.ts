import type { Client } from '../client/client.js';

/**
 * Ctrl-C during `run -w` or a foreground `exec` goes to the session as C-c, as a terminal would send it; one that came
 * before the session existed is sent as soon as it does. A second Ctrl-C leaves, and the session
 * keeps running, like a detached `docker run`. SIGTERM and SIGHUP (a CI runner's timeout, a closed
 * terminal) are passed on too, like `docker run`'s signal proxy: the job (or the session, for
 * `run -w`) is killed with that signal, its grace, then SIGKILL, and the CLI exits with its end.
 */
export class InterruptForwarder {
  count = 0;
  private id: string | null = null;
  private onLeave: (() => void) | null = null;
  /** Called instead, when Ctrl-C comes before attach (a job still waiting for its turn). */
  private onEarly: (() => void) | null = null;
  /** The signal (Ctrl-C's SIGINT, TERM, HUP) that came before attach and cancelled the request. */
  cancelledBy: NodeJS.Signals | null = null;
  /** Kills what runs with a signal (TERM, HUP), once attached. */
  private onSignal: ((signal: NodeJS.Signals) => void) | null = null;
  private pendingSignal: NodeJS.Signals | null = null;
  /** Before attach, with a cancel set: the signal cancels the request. */
  private cancelEarly(signal: NodeJS.Signals): boolean {
    if (this.id || !this.onEarly) return false;
    this.cancelledBy = signal;
    this.onEarly();
    return true;
  }
  private readonly relay = (signal: NodeJS.Signals) => {
    if (this.cancelEarly(signal)) return;
    if (this.onSignal) this.onSignal(signal);
    else this.pendingSignal = signal;
  };
  private readonly handler = () => {
    if (this.cancelEarly('SIGINT')) return;
    if (++this.count > 1) this.onLeave?.();
    else if (this.id) this.forward();
  };

  /** Ctrl-C before attach cancels instead of waiting to be forwarded (exec: the daemon drops a queued job whose caller left). */
  cancelBeforeAttach(cancel: (() => void) | null): void {
    this.onEarly = cancel;
  }

  constructor(private readonly client: Client) {
    process.on('SIGINT', this.handler);
    process.on('SIGTERM', this.relay);
    process.on('SIGHUP', this.relay);
  }

  /** `kill`: ends what runs (the job, or the session) with a signal. */
  attach(id: string, onLeave: () => void, kill?: (signal: NodeJS.Signals) => Promise<unknown>): void {
    this.id = id;
    this.onLeave = onLeave;
    if (kill) this.onSignal = (signal) => void kill(signal).catch(() => undefined);
    if (this.count > 1) onLeave();
    else if (this.count === 1) this.forward();
    if (this.pendingSignal && this.onSignal) this.onSignal(this.pendingSignal);
  }

  stop(): void {
    process.off('SIGINT', this.handler);
    process.off('SIGTERM', this.relay);
    process.off('SIGHUP', this.relay);
  }

  private forward(): void {
    void this.client.sessions.send(this.id!, { keys: ['C-c'], enter: false }).catch(() => undefined);
  }
}

