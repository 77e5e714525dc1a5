/**
 * The code of the regex thread (ADR 0029), run with `new Worker(…, { eval: true })` so that it needs
 * no file of its own next to the daemon's bundle. It compiles each expression once, in V8's
 * linear-time engine (the `l` flag) when the expression allows it (no backreferences, no
 * lookaround), else in the usual backtracking one, and answers the index of the first match or -1.
 * The daemon's main thread never runs an expression a client sent.
 */
export const THREAD_SOURCE = String.raw`
'use strict';
const { parentPort } = require('node:worker_threads');
require('node:v8').setFlagsFromString('--enable-experimental-regexp-engine');
const compiled = new Map();
function compile(source) {
  let re = compiled.get(source);
  if (re) return re;
  try {
    re = new RegExp(source, 'ml');
  } catch {
    re = new RegExp(source, 'm');
  }
  if (compiled.size >= 64) compiled.clear();
  compiled.set(source, re);
  return re;
}
parentPort.on('message', (m) => {
  parentPort.postMessage({ id: m.id, started: true });
  try {
    const found = compile(m.source).exec(m.text);
    parentPort.postMessage({ id: m.id, index: found ? found.index : -1 });
  } catch (err) {
    parentPort.postMessage({ id: m.id, error: String(err && err.message || err) });
  }
});
`;
