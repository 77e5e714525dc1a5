import { writeSync } from 'node:fs';
import { Client } from '../../client/client.js';
import { AmuxError, EXIT, toAmuxError } from '../../errors.js';
import { TopController, type OutsideEffect } from '../top/controller.js';
import { followLogs } from '../top/follow-logs.js';
import { enableStyles, loadInk } from '../top/ink.js';
import { useColor } from '../output.js';
import { attachCommand } from './attach.js';

/** The alternate screen (the shell's screen comes back on exit), the cursor hidden while `top` draws. */
const ENTER = '\x1b[?1049h\x1b[2J\x1b[H\x1b[?25l';
const SHOW_CURSOR = '\x1b[?25h';
const LEAVE = `${SHOW_CURSOR}\x1b[?1049l`;

/**
 * `amux top`: a full-screen live dashboard of the sessions (src/guides/sessions.md "Dashboard"; ADR 0020). It
 * needs a terminal on stdin and stdout (exit 2 without). It leaves the terminal as it found it
 * on every way out: q, Ctrl-C, SIGTERM/SIGHUP/SIGINT, the daemon going away (exit 3), an error.
 */
export async function topCommand(): Promise<number> {
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new AmuxError('not_a_tty', "top needs a terminal: stdin and stdout must be a TTY; use 'amux ps' or 'amux events -f' from scripts");
  }
  // The first list comes before the screen is taken: a daemon that cannot start is one line, exit 3.
  const first = await new Client().sessions.list({ usage: true });
  const color = useColor();
  // React and the view are loaded here, by `top` alone (ADR 0008); React's production build (and
  // ink's reconciler's) unless NODE_ENV asks otherwise: React picks its build when it is loaded.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV ??= 'production';
  const { createElement } = require('react') as typeof import('react');
  const { TopApp } = require('../top/app.js') as typeof import('../top/app.js');
  const ink = await loadInk();
  if (nodeEnv === undefined) delete process.env.NODE_ENV;
  await enableStyles();
  // From here on the daemon is never started again: its going away ends `top` (exit 3).
  const client = new Client(undefined, false);
  const stdin = process.stdin;
  const stdout = process.stdout;

  let ended = false;
  let inside = false; // the screen is ours (not handed to attach or a log follow)
  let instance: ReturnType<Ink['render']> | null = null;
  let resolveDone!: (code: number) => void;
  const done = new Promise<number>((r) => {
    resolveDone = r;
  });

  /** Cooked mode and the cursor back; the shell's screen back when ours is up (a log follow is on the shell's). */
  const restoreSync = (leaveScreen: boolean) => {
    try {
      if (stdin.isTTY) stdin.setRawMode(false);
    } catch {
      /* stdin closed */
    }
    try {
      writeSync(1, leaveScreen ? LEAVE : SHOW_CURSOR);
    } catch {
      /* stdout closed */
    }
  };
  const unmount = () => {
    const i = instance;
    instance = null;
    try {
      i?.unmount();
    } catch {
      /* already torn down */
    }
  };
  const finish = (code: number, message?: string) => {
    if (ended) return;
    ended = true;
    controller.stop();
    unmount();
    restoreSync(inside);
    inside = false;
    if (message) process.stderr.write(`amux: ${message}\n`);
    detach();
    resolveDone(code);
    // Whatever might still hold the event loop (a log follow's stdin), the command is over.
    setTimeout(() => process.exit(code), 1000).unref();
  };

  const controller = new TopController(client, (why) => finish(EXIT.daemon, why));

  const mount = () => {
    stdout.write(ENTER);
    inside = true;
    instance = ink.render(createElement(TopApp, { ink, controller, color, onOutside: (e) => void outside(e) }), {
      exitOnCtrlC: false, // Ctrl-C is a key of ours: it quits through finish, which restores the terminal
      patchConsole: false,
      // Whole frames (erase, then write, inside a synchronized update): ink 6.8's incremental mode
      // puts a frame that ends in a newline one line too low (ADR 0020).
      maxFps: 20,
    });
    const mine = instance;
    mine.waitUntilExit().catch((err: unknown) => {
      if (instance === mine) finish(EXIT.failed, `top failed: ${toAmuxError(err).message}`);
    });
  };
  const leave = () => {
    controller.suspend();
    unmount();
    stdout.write(LEAVE);
    inside = false;
  };

  /** Quit; or hand the terminal to attach or a log follow, then come back. */
  const outside = async (effect: OutsideEffect) => {
    if (effect.type === 'quit') return finish(EXIT.ok);
    if (!instance) return;
    leave();
    try {
      if (effect.type === 'attach') await attachCommand(client, effect.session.id, {});
      else await followLogs(client, effect.session);
    } catch (err) {
      const e = toAmuxError(err);
      if (e.code === 'daemon_unreachable') return finish(EXIT.daemon, 'the daemon stopped; sessions keep running (\'amux top\' starts it again)');
      controller.note(e.message, true);
    }
    if (ended) return;
    mount();
    controller.resume();
  };

  // A resize redraws from a clean screen: ink's own redraw assumes the old frame is where it left it.
  let resizeTimer: NodeJS.Timeout | null = null;
  const onResize = () => {
    if (resizeTimer) clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      resizeTimer = null;
      if (!instance || ended) return;
      unmount();
      mount();
    }, 50);
  };
  const onSignal = (signal: NodeJS.Signals, n: number) => () => finish(128 + n, signal === 'SIGINT' ? undefined : `top ended by ${signal}`);
  const handlers: [NodeJS.Signals, () => void][] = [
    ['SIGTERM', onSignal('SIGTERM', 15)],
    ['SIGHUP', onSignal('SIGHUP', 1)],
    ['SIGINT', onSignal('SIGINT', 2)],
  ];
  const onCrash = (err: unknown) => finish(EXIT.failed, `top failed: ${toAmuxError(err).message}`);
  const onExit = () => restoreSync(inside);
  const detach = () => {
    stdout.off('resize', onResize);
    if (resizeTimer) clearTimeout(resizeTimer);
    for (const [sig, fn] of handlers) process.off(sig, fn);
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
    process.off('exit', onExit);
  };
  stdout.on('resize', onResize);
  for (const [sig, fn] of handlers) process.on(sig, fn);
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  process.on('exit', onExit);

  try {
    controller.start(first);
    mount();
  } catch (err) {
    onCrash(err);
  }
  return done;
}

type Ink = Awaited<ReturnType<typeof loadInk>>;
