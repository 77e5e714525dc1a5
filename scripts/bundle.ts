/**
 * `npm run build`'s last step: esbuild turns the compiled modules into the files that ship (ADR 0013,
 * ADR 0025). Bundling is a build step only: the source keeps its layout, and the tests run these files
 * through bin/amux.
 *
 * - `dist/src/cli/bundle.js`: what every `amux` command loads first: the entry (`cli/main.ts`) with the
 *   fast paths of `ps`, `run`, `exec`, `wait`, `send`, `logs`, `state`, completion and the far end of a
 *   remote call. It stops at
 *   `require('./full.js')`, which loads
 * - `dist/src/cli/bundle-full.js`: commander (inside it, ADR 0070) and every other command (`cli/full.ts`). The two bundles
 *   share no state: only argv goes in and an exit code comes out (ADR 0025). It stops at
 *   `require('./reference/help-command.js')`, which loads
 * - `dist/src/cli/bundle-help.js`: `amux help` and the pages of the reference (ADR 0063), which no
 *   other command loads. Only the program (commander's objects) goes in; it reports its own errors.
 * - `dist/src/daemon/amuxd.js`: the daemon (ADR 0014).
 * - `dist/src/cli/ink.mjs`: ink and its dependencies as one ES module, which `amux top` imports
 *   instead of ink's ~530 modules (ADR 0020). React and chalk stay outside, so that `top` shares their
 *   one instance with ink (React's hooks, chalk's colour level); ink's optional devtools are left out.
 *
 * The CLI bundles are minified in whitespace and syntax, never in names (stack traces keep them):
 * measured, start-up reads and compiles a file in proportion to its size, and a file with any
 * non-ASCII character (a comment's "…") is decoded and scanned as two-byte text (ADR 0025). Each has
 * a linked source map for `node --enable-source-maps`; the package does not ship the maps.
 *
 * The bundles are loaded through `cli/code-cache.ts` (ADR 0069), which stays outside them: from V8's
 * code cache, named by the build's id (`build-id` beside them, the bundles' hash, written here);
 * the caches of the build before are deleted first. A CLI bundle may not call `import()`.
 */
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILD_ID_FILE } from '../src/cli/code-cache.js';

const root = join(__dirname, '..', '..');
const cli = join(root, 'dist', 'src', 'cli');
const daemon = join(root, 'dist', 'src', 'daemon');

/**
 * The CLI's loader (`cli/code-cache.ts`, ADR 0069) stays outside every bundle: node loads it, and
 * its `import()` is node's (a bundle compiled from the code cache has none of its own).
 */
const loaderApart: Plugin = {
  name: 'code-cache',
  setup(build) {
    build.onResolve({ filter: /(^|\/)code-cache\.js$/ }, () => ({ path: './code-cache.js', external: true }));
  },
};
/** esbuild resolves `require(from)` to another bundle, left outside this one and loaded from its code cache. */
const apart = (from: RegExp, to: string): Plugin => ({
  name: `apart-${to}`,
  setup(build) {
    build.onResolve({ filter: from }, () => ({ path: to, namespace: 'apart' }));
    build.onLoad({ filter: /.*/, namespace: 'apart' }, () => ({
      contents: `module.exports = require('./code-cache.js').requireBundle(require('node:path').join(__dirname, ${JSON.stringify(to)}));`,
      resolveDir: cli,
    }));
  },
});
/** Bundles the package `name` into this bundle, whatever `packages: 'external'` leaves outside. */
const inside = (name: string): Plugin => ({
  name: `inside-${name}`,
  setup(build) {
    build.onResolve({ filter: new RegExp(`^${name}$`) }, (args) => ({ path: require.resolve(name, { paths: [args.resolveDir] }) }));
  },
});
const fullApart = apart(/^\.\/full\.js$/, 'bundle-full.js');
const helpApart = apart(/^\.\/reference\/help-command\.js$/, 'bundle-help.js');
const bundles = ['bundle.js', 'bundle-full.js', 'bundle-help.js'];

const node: BuildOptions = { bundle: true, platform: 'node', target: 'node20', logLevel: 'warning' };
const lean: BuildOptions = { ...node, format: 'cjs', packages: 'external', minifyWhitespace: true, minifySyntax: true, legalComments: 'none', charset: 'ascii', sourcemap: 'linked' };

// The caches of an earlier build, and its id: a build half done leaves none to be read (ADR 0069).
for (const dir of [cli, daemon]) {
  for (const f of readdirSync(dir)) if (f.endsWith('.cache') || f.endsWith('.tmp') || f === BUILD_ID_FILE) rmSync(join(dir, f), { force: true });
}

Promise.all([
  build({ ...lean, entryPoints: [join(cli, 'main.js')], outfile: join(cli, 'bundle.js'), plugins: [loaderApart, fullApart] }),
  // commander inside the full bundle, compiled from its code cache with it: required from node_modules it
  // cost every verb of the full path ~20 ms of resolution and compilation (ADR 0070).
  build({ ...lean, entryPoints: [join(cli, 'full.js')], outfile: join(cli, 'bundle-full.js'), plugins: [loaderApart, helpApart, inside('commander')] }),
  build({ ...lean, entryPoints: [join(cli, 'reference', 'help-command.js')], outfile: join(cli, 'bundle-help.js'), plugins: [loaderApart] }),
  build({
    ...node,
    entryPoints: [join(root, 'dist', 'src', 'daemon', 'entry.js')],
    outfile: join(daemon, 'amuxd.js'),
    format: 'cjs',
    external: ['better-sqlite3'],
  }),
  build({
    ...node,
    entryPoints: [join(root, 'node_modules', 'ink', 'build', 'index.js')],
    outfile: join(cli, 'ink.mjs'),
    format: 'esm',
    external: ['react', 'chalk', '*devtools.js'],
    // CommonJS modules inside (react-reconciler, signal-exit) require React: give the module a require.
    banner: { js: "import { createRequire as __amuxRequire } from 'node:module'; const require = __amuxRequire(import.meta.url);" },
  }),
])
  .then(() => {
    // A bundle compiled by the loader has no import() of its own: each goes through importModule.
    const files = [...bundles.map((b) => join(cli, b)), join(daemon, 'amuxd.js')];
    const texts = files.map((f) => readFileSync(f, 'latin1'));
    texts.forEach((text, i) => {
      if (/\bimport\(/.test(text.replace(/\/\/# sourceMappingURL=.*$/m, '').replace(/^\s*\/\/.*$/gm, ''))) throw new Error(`${files[i]} calls import(): use importModule (src/cli/code-cache.ts)`);
    });
    // The build's id names the code caches (ADR 0069): the bundles' own hash, the daemon's included.
    const hash = createHash('sha256');
    for (const text of texts) hash.update(text);
    const id = `${hash.digest('hex').slice(0, 16)}\n`;
    for (const dir of [cli, daemon]) writeFileSync(join(dir, BUILD_ID_FILE), id);
  })
  .catch((err: Error) => {
    // esbuild has printed what failed.
    process.stderr.write(`bundle: ${err.message.split('\n')[0]}\n`);
    process.exit(1);
  });
