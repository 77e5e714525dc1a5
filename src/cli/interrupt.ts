import type { Client } from '../client/client.js';

/**
 * Ctrl-C during `run -w` or a foreground `exec` goes to the session as C-c, as a terminal would send it; one that came
 * before the session existed is sent as soon as it does. A second Ctrl-C leaves, and the session
 * keeps running, like a detached `docker run`.
 */
export class InterruptForwarder {
  count = 0;
  private id: string | null = null;
  private onLeave: (() => void) | null = null;
  /** Called instead, when Ctrl-C comes before attach (a job still waiting for its turn). */
  private onEarly: (() => void) | null = null;
  /** Ctrl-C came before attach and cancelled the request. */
  cancelled = false;
  private readonly handler = () => {
    if (!this.id && this.onEarly) {
      this.cancelled = true;
      this.onEarly();
      return;
    }
    if (++this.count > 1) this.onLeave?.();
    else if (this.id) this.forward();
  };

  /** Ctrl-C before attach cancels instead of waiting to be forwarded (exec: the daemon drops a queued job whose caller left). */
  cancelBeforeAttach(cancel: (() => void) | null): void {
    this.onEarly = cancel;
  }

  constructor(private readonly client: Client) {
    process.on('SIGINT', this.handler);
  }

  attach(id: string, onLeave: () => void): void {
    this.id = id;
    this.onLeave = onLeave;
    if (this.count > 1) onLeave();
    else if (this.count === 1) this.forward();
  }

  stop(): void {
    process.off('SIGINT', this.handler);
  }

  private forward(): void {
    void this.client.sessions.send(this.id!, { keys: ['C-c'], enter: false }).catch(() => undefined);
  }
}

