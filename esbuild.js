// Builds every bundle SeqScope ships: the CLI (node) now, the extension host and the browser
// webview as they arrive. `--production` minifies, `--watch` rebuilds on change.
const esbuild = require('esbuild');
const fs = require('node:fs');

const pkg = require('./package.json');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/** Prints errors in the form the `$esbuild-watch` problem matcher reads. */
const problemMatcher = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => {
      if (watch) console.log('[watch] build started');
    });
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (watch) console.log('[watch] build finished');
    });
  },
};

/**
 * The CLI and the extension reach the Pub/Sub layer only through `import('../pubsub')`; this
 * turns that import into a run-time require of the separate dist/pubsub.js bundle, so the
 * client library is neither parsed at activation nor built into two bundles.
 */
const pubsubApart = {
  name: 'pubsub-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/pubsub$/ }, () => ({ path: './pubsub.js', external: true }));
  },
};

/** @type {import('esbuild').BuildOptions[]} */
const targets = [
  {
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    banner: { js: '#!/usr/bin/env node' },
    define: { SEQSCOPE_VERSION: JSON.stringify(pkg.version) },
    plugins: [pubsubApart],
  },
  {
    // The Pub/Sub layer with @google-cloud/pubsub, loaded lazily by the two above.
    entryPoints: ['src/pubsub/index.ts'],
    outfile: 'dist/pubsub.js',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
  },
  {
    // The extension host side. `vscode` is provided by the host at run time.
    entryPoints: ['src/extension/extension.ts'],
    outfile: 'dist/extension.js',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    plugins: [pubsubApart],
  },
  {
    // Loads captures on a worker thread for the extension (src/timeline/node/loadInWorker.ts).
    entryPoints: ['src/timeline/node/loadWorker.ts'],
    outfile: 'dist/loadWorker.js',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
  },
  {
    // Find Messages on a worker thread for the extension (src/timeline/node/searchInWorker.ts).
    entryPoints: ['src/timeline/node/searchWorker.ts'],
    outfile: 'dist/searchWorker.js',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
  },
  {
    // The parallel reader's scanning threads (src/timeline/node/scanPool.ts), for the CLI and the loader.
    entryPoints: ['src/timeline/node/scanWorker.ts'],
    outfile: 'dist/scanWorker.js',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
  },
  {
    // The timeline webview (and the standalone HTML export, which embeds the same bundle).
    entryPoints: ['src/webview/main.ts'],
    outfile: 'dist/webview/timeline.js',
    platform: 'browser',
    target: 'chrome120',
    format: 'iife',
  },
];

/**
 * The webview's icons: the codicon font and its stylesheet, copied from the pinned
 * @vscode/codicons into dist/codicons/ (the webview loads them as resources; the standalone
 * export inlines them). See src/shared/codicons.ts.
 */
function copyCodicons() {
  fs.mkdirSync('dist/codicons', { recursive: true });
  for (const f of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(require.resolve(`@vscode/codicons/dist/${f}`), `dist/codicons/${f}`);
}

async function main() {
  // A production build starts clean, so no stale source map from a dev build is packaged.
  if (production && !watch) fs.rmSync('dist', { recursive: true, force: true });
  const contexts = await Promise.all(
    targets
      .filter((t) => t.entryPoints.every((e) => fs.existsSync(e)))
      .map((t) =>
        esbuild.context({
          bundle: true,
          minify: production,
          sourcemap: !production,
          sourcesContent: false,
          logLevel: 'silent',
          ...t,
          plugins: [problemMatcher, ...(t.plugins ?? [])],
        }),
      ),
  );
  copyCodicons();
  if (watch) {
    await Promise.all(contexts.map((c) => c.watch()));
    return;
  }
  try {
    await Promise.all(contexts.map((c) => c.rebuild()));
  } finally {
    await Promise.all(contexts.map((c) => c.dispose()));
  }
  if (fs.existsSync('dist/cli.js')) fs.chmodSync('dist/cli.js', 0o755);
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e.message ?? e);
    process.exit(1);
  });
}

module.exports = { targets };
