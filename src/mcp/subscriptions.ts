import type { Client, Stream } from '../client/client.js';
import type { EventView } from '../protocol/events.js';
import { sessionOfUri } from './resources.js';

/** The events that change a session resource: its status, its removal, its attention and declared state (ADR 0034). */
const UPDATES = new Set(['state_changed', 'session_removed', 'attention', 'attention_cleared', 'state_declared', 'declaration_ended']);

/** How long to wait before following the event stream again when the daemon went away. */
const REFOLLOW_MS = 1_000;

/**
 * Subscriptions to session resources (src/guides/agents.md): one follow of the daemon's event stream
 * while anything is subscribed, and `notifications/resources/updated` for each subscribed URI of a
 * session whose status changed (or that was removed).
 */
export class Subscriptions {
  /** Session id → subscribed URIs of it. */
  private readonly bySession = new Map<string, Set<string>>();
  private stream: Stream | null = null;
  /** The follow under way (connecting or connected); null when none. */
  private connecting: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly client: Client,
    private readonly notify: (uri: string) => Promise<void>,
  ) {}

  async subscribe(uri: unknown): Promise<void> {
    const { ref } = sessionOfUri(uri);
    const { session } = await this.client.sessions.inspect(ref);
    const uris = this.bySession.get(session.id) ?? new Set<string>();
    uris.add(uri as string);
    this.bySession.set(session.id, uris);
    await this.follow();
  }

  unsubscribe(uri: string): void {
    for (const [id, uris] of this.bySession) {
      uris.delete(uri);
      if (uris.size === 0) this.bySession.delete(id);
    }
    if (this.bySession.size === 0) this.stop();
  }

  close(): void {
    this.closed = true;
    this.stop();
  }

  private stop(): void {
    this.stream?.destroy();
    this.stream = null;
    this.connecting = null;
  }

  /**
   * Follows new events (those after now: `since` 1 ms) until nothing is subscribed. Resolves once
   * the daemon has the follow, so a change made after a subscription was answered is always heard.
   */
  private follow(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.connecting) return this.connecting;
    const mine: Promise<void> = new Promise<void>((connected) => {
      void (async () => {
        let stream: Stream | null = null;
        try {
          stream = await this.client.events.follow({ since: 1 });
          if (this.connecting === mine) this.stream = stream;
          connected();
          if (this.connecting !== mine || this.bySession.size === 0 || this.closed) return void stream.destroy();
          let pending = '';
          for await (const chunk of stream) {
            pending += chunk.toString('utf8');
            let nl: number;
            while ((nl = pending.indexOf('\n')) >= 0) {
              const line = pending.slice(0, nl);
              pending = pending.slice(nl + 1);
              if (line) await this.onEvent(JSON.parse(line) as EventView);
            }
          }
        } catch {
          /* the daemon went away: followed again below while anything is subscribed */
        } finally {
          connected();
        }
        if (this.connecting !== mine) return; // stopped: a newer follow (if any) is in charge
        this.stream = null;
        this.connecting = null;
        if (this.bySession.size > 0 && !this.closed) setTimeout(() => void this.follow(), REFOLLOW_MS).unref();
      })();
    });
    this.connecting = mine;
    return mine;
  }

  private async onEvent(e: EventView): Promise<void> {
    if (!UPDATES.has(e.type)) return;
    for (const uri of this.bySession.get(e.sessionId) ?? []) await this.notify(uri).catch(() => undefined);
  }
}
