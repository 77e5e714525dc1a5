/**
 * `npm run build`'s last step (ADR 0020): ink and its dependencies as one ES module,
 * `dist/src/cli/ink.mjs`, which `amux top` imports instead of ink's ~530 modules: measured, it
 * halves the cost of loading ink. React and chalk stay outside, so that `top` shares their one
 * instance with ink (React's hooks, chalk's colour level). The optional devtools of ink (with
 * DEV=true) are not bundled.
 */
import { buildSync } from 'esbuild';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
buildSync({
  entryPoints: [join(root, 'node_modules', 'ink', 'build', 'index.js')],
  outfile: join(root, 'dist', 'src', 'cli', 'ink.mjs'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['react', 'chalk', '*devtools.js'],
  // CommonJS modules inside (react-reconciler, signal-exit) require React: give the module a require.
  banner: { js: "import { createRequire as __amuxRequire } from 'node:module'; const require = __amuxRequire(import.meta.url);" },
  logLevel: 'warning',
});
