import type { Client, Stream } from '../../client/client.js';
import { toAmuxError } from '../../errors.js';
import type { SessionView } from '../../protocol/sessions.js';
import { keepSelection, label, reduceInput, type Effect, type KeyInfo, type UiState } from './keys.js';
import { visibleSessions } from './model.js';
import { PreviewSource, type Preview } from './preview.js';

/** The longest the list waits after a refresh before the next one: at most twice a second (src/guides/sessions.md "Dashboard"). */
export const REFRESH_MS = 500;
/** Events come in bursts (a start writes several): one refresh for a burst, this long after its first. */
const EVENT_DEBOUNCE_MS = 60;
/** After a selection change, the preview follows once the keys have stopped for this long. */
const SELECT_DEBOUNCE_MS = 80;
/** How long an action's note stays in the footer. */
const NOTE_MS = 6000;

export interface TopSnapshot {
  /** Every session not removed, as the daemon answered (with `usage`). */
  sessions: SessionView[];
  /** The rows shown: filtered and ordered. */
  rows: SessionView[];
  ui: UiState;
  preview: Preview;
  /** When the list was last read (the header's clock), 0 before the first. */
  listedAt: number;
}

/** Effects that leave the dashboard for a while (or for good): the runner carries them out. */
export type OutsideEffect = Extract<Effect, { type: 'quit' | 'attach' | 'logs' }>;

/**
 * The live data of `top` and what its keys do (src/guides/sessions.md "Dashboard"; ADR 0020). The list is read
 * when the daemon's event stream says something changed (debounced) and otherwise every
 * REFRESH_MS: one `GET /v1/sessions?usage=1` for all rows, and one screen (or log tail) for the
 * selected row only, never one request per row.
 */
export class TopController {
  private snap: TopSnapshot;
  private readonly listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | null = null;
  private dueAt = Infinity;
  private previewTimer: NodeJS.Timeout | null = null;
  private listing = false;
  private listAgain = false;
  private events: Stream | null = null;
  private stopped = false;
  private suspended = false;
  private noteTimer: NodeJS.Timeout | null = null;
  /** The selected row's screen or log tail. */
  private readonly previews: PreviewSource;
  private previewSeq = 0;

  constructor(
    private readonly client: Client,
    /** The daemon went away (the event stream ended and it does not answer): `top` ends, exit 3. */
    private readonly onGone: (why: string) => void,
  ) {
    this.previews = new PreviewSource(client);
    this.snap = {
      sessions: [],
      rows: [],
      ui: { filter: '', selectedId: null, mode: { kind: 'list' }, note: null },
      preview: { id: null, kind: 'note', text: '' },
      listedAt: 0,
    };
  }

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getSnapshot = (): TopSnapshot => this.snap;

  private set(patch: Partial<TopSnapshot>): void {
    this.snap = { ...this.snap, ...patch };
    for (const fn of this.listeners) fn();
  }

  /** Starts from a first list (read before the screen was taken over), then follows the daemon. */
  start(first: SessionView[]): void {
    this.applyList(first, Date.now());
    void this.follow();
    this.schedule(REFRESH_MS);
    this.schedulePreview(0);
  }

  stop(): void {
    this.stopped = true;
    this.events?.destroy();
    for (const t of [this.timer, this.previewTimer, this.noteTimer]) if (t) clearTimeout(t);
  }

  /** While the terminal is handed to `attach` or a log follow: no redraws, then a fresh look. */
  suspend(): void {
    this.suspended = true;
  }

  resume(): void {
    this.suspended = false;
    this.schedule(0);
    this.schedulePreview(0);
  }

  /** A key from the app; returns the effects the runner must carry out (quit, attach, logs). */
  key(input: string, key: KeyInfo, page: number): OutsideEffect | undefined {
    const before = this.snap.ui;
    const { state, effect } = reduceInput(before, input, key, this.snap.rows, page);
    const rows = state.filter !== before.filter ? visibleSessions(this.snap.sessions, state.filter) : this.snap.rows;
    const oldIndex = this.snap.rows.findIndex((r) => r.id === before.selectedId);
    const ui = { ...state, selectedId: keepSelection(rows, state.selectedId, oldIndex) };
    this.set({ ui, rows });
    if (ui.note && ui.note !== before.note) this.expireNote();
    if (ui.selectedId !== before.selectedId) this.schedulePreview(SELECT_DEBOUNCE_MS);
    if (!effect) return undefined;
    if (effect.type === 'quit' || effect.type === 'attach' || effect.type === 'logs') return effect;
    void this.act(effect);
    return undefined;
  }

  /** Shows a note in the footer for a few seconds. */
  note(text: string, error = false): void {
    this.set({ ui: { ...this.snap.ui, note: { text, error } } });
    this.expireNote();
  }

  private expireNote(): void {
    if (this.noteTimer) clearTimeout(this.noteTimer);
    const shown = this.snap.ui.note;
    this.noteTimer = setTimeout(() => {
      if (this.snap.ui.note === shown) this.set({ ui: { ...this.snap.ui, note: null } });
    }, NOTE_MS);
  }

  /** Sends, kills, removes, pauses or resumes; the outcome is a note, and the list follows from the events. */
  private async act(effect: Exclude<Effect, OutsideEffect>): Promise<void> {
    const s = effect.session;
    const who = label(s);
    try {
      switch (effect.type) {
        case 'send':
          await this.client.sessions.send(s.id, { text: effect.text });
          this.note(`sent ${JSON.stringify(effect.text)} to ${who}`);
          break;
        case 'kill':
          this.note(`killing ${who}…`);
          await this.client.sessions.kill(s.id);
          this.note(`killed ${who}`);
          break;
        case 'remove':
          if (effect.force) this.note(`killing and removing ${who}…`);
          await this.client.sessions.remove(s.id, { force: effect.force });
          this.note(`removed ${who}; its history stays ('amux history')`);
          break;
        case 'pause':
          await this.client.sessions.pause(s.id);
          this.note(`paused ${who}`);
          break;
        case 'resume':
          await this.client.sessions.resume(s.id);
          this.note(`resumed ${who}`);
          break;
      }
    } catch (err) {
      const e = toAmuxError(err);
      if (e.code === 'daemon_unreachable') return this.gone();
      this.note(e.message, true);
    }
    this.schedule(0);
  }

  /** The next list read in `ms` (an earlier one already due stays). */
  private schedule(ms: number): void {
    if (this.stopped) return;
    const due = Date.now() + ms;
    if (this.timer && this.dueAt <= due) return;
    if (this.timer) clearTimeout(this.timer);
    this.dueAt = due;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.dueAt = Infinity;
      void this.refresh();
    }, ms);
  }

  /** One list read at a time; a change seen meanwhile gets one more right after. */
  private async refresh(): Promise<void> {
    if (this.stopped) return;
    if (this.suspended) return this.schedule(REFRESH_MS);
    if (this.listing) {
      this.listAgain = true;
      return;
    }
    this.listing = true;
    try {
      const sessions = await this.client.sessions.list({ usage: true });
      if (this.stopped) return;
      // The list and the selected row's screen go to the view together: one frame per refresh.
      this.applyList(sessions, Date.now(), false);
      await this.refreshPreview(true);
    } catch (err) {
      const e = toAmuxError(err);
      if (e.code === 'daemon_unreachable') return this.gone();
      this.note(`cannot read the sessions: ${e.message}`, true);
    } finally {
      this.listing = false;
    }
    const again = this.listAgain;
    this.listAgain = false;
    this.schedule(again ? EVENT_DEBOUNCE_MS : REFRESH_MS);
  }

  private applyList(sessions: SessionView[], at: number, notify = true): void {
    const rows = visibleSessions(sessions, this.snap.ui.filter, this.snap.ui.selectedId);
    const oldIndex = this.snap.rows.findIndex((r) => r.id === this.snap.ui.selectedId);
    const selectedId = keepSelection(rows, this.snap.ui.selectedId, oldIndex);
    const patch = { sessions, rows, listedAt: at, ui: { ...this.snap.ui, selectedId } };
    if (notify) this.set(patch);
    else this.snap = { ...this.snap, ...patch };
  }

  private schedulePreview(ms: number): void {
    if (this.previewTimer) clearTimeout(this.previewTimer);
    this.previewTimer = setTimeout(() => {
      this.previewTimer = null;
      void this.refreshPreview().catch(() => undefined);
    }, ms);
  }

  /**
   * The selected session's screen (live) or last lines (finished): one request, for that row only.
   * `always`: notify the view even when the preview is unchanged (the list changed before it).
   */
  private async refreshPreview(always = false): Promise<void> {
    if (this.stopped) return;
    if (this.suspended) return always ? this.set({}) : undefined;
    const seq = ++this.previewSeq;
    const s = this.snap.rows.find((r) => r.id === this.snap.ui.selectedId);
    const p = await this.previews.read(s, this.snap.sessions.length > 0, this.snap.preview.id);
    if (p === 'gone') return this.gone();
    if (p !== 'unchanged' && seq === this.previewSeq && !this.stopped) this.set({ preview: p });
    else if (always) this.set({});
  }

  /** The event stream: any event may change a row, so each burst brings one list read. */
  private async follow(): Promise<void> {
    while (!this.stopped) {
      try {
        this.events = await this.client.events.follow({ since: 1 });
        for await (const chunk of this.events) {
          if (chunk.includes(0x0a)) this.schedule(EVENT_DEBOUNCE_MS);
        }
      } catch {
        /* the stream broke: see below */
      }
      if (this.stopped) return;
      // A follow ends only when the daemon goes away (it stops, or it died); a daemon that still
      // answers gets a new follow.
      try {
        await this.client.health();
      } catch {
        return this.gone();
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  private gone(): void {
    if (this.stopped) return;
    this.stop();
    this.onGone('the daemon stopped; sessions keep running (\'amux top\' starts it again)');
  }
}
