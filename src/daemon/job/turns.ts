/**
 * Foreground jobs of one session take turns (ADR 0009): one queue per session, in arrival order.
 * A foreground job holds its session's turn until it ends; a background job only for its launch.
 */
export class Turns {
  private readonly tails = new Map<string, Promise<void>>();

  /** Waits for the session's turn; resolves with the function that gives it back. */
  async take(sessionId: string): Promise<() => void> {
    const prev = this.tails.get(sessionId) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => {
      release = r;
    });
    const chained = prev.then(() => mine);
    this.tails.set(sessionId, chained);
    void chained.then(() => {
      if (this.tails.get(sessionId) === chained) this.tails.delete(sessionId);
    });
    await prev;
    return release;
  }

  /** A job adopted after a restart holds its session's turn until `ended` (nothing is typed into its shell meanwhile). */
  holdUntil(sessionId: string, ended: Promise<unknown>): void {
    if (!this.tails.has(sessionId)) this.tails.set(sessionId, ended.then(() => undefined));
  }
}
