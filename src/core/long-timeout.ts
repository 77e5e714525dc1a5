/** Node fires a timer of more than 2^31-1 ms at once (TimeoutOverflowWarning): longer ones go in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * `setTimeout` for any duration amux accepts (`wait --timeout 25d`): re-armed in steps of at most
 * 2^31-1 ms until the whole time has passed. Returns the function that cancels it. `unref`: the
 * timer keeps no process alive.
 */
export function setLongTimeout(fn: () => void, ms: number, now: () => number = Date.now, unref = false): () => void {
  const due = now() + ms;
  let timer: NodeJS.Timeout;
  const arm = () => {
    const left = due - now();
    timer = setTimeout(left > MAX_TIMER_MS ? arm : fn, Math.max(0, Math.min(left, MAX_TIMER_MS)));
    if (unref) timer.unref();
  };
  arm();
  return () => clearTimeout(timer);
}
