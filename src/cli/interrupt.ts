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
  private readonly handler = () => {
    if (++this.count > 1) this.onLeave?.();
    else if (this.id) this.forward();
  };

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
    void this.client.json('POST', `/v1/sessions/${this.id}/input`, { keys: ['C-c'], enter: false }).catch(() => undefined);
  }
}

