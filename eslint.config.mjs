// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { builtinModules } from 'node:module';

/**
 * The layers; a folder imports only what it reaches going down its lines (CONTRIBUTING.md,
 * "Layer rules"):
 *
 *     cli · extension                webview
 *       │          ╲                    │
 *     pubsub     timeline/node          │
 *       │            │                  │
 *       │        timeline  ─────────────┘
 *       │       ╱
 *     shared
 *       │
 *     core
 *
 * `banned` lists the folders of src each may not import; a layer with `browser` (why it runs in
 * one) imports no Node built-in and uses no Node global. src/timeline is two parts: the folder
 * but node/ runs anywhere, and src/timeline/node holds what needs Node (workers, files, the
 * loader); the webview imports only the first. cli and extension never import each other, and
 * nothing but src/extension imports `vscode`.
 */
const LAYERS = {
  core: {
    banned: ['shared', 'timeline', 'pubsub', 'cli', 'extension', 'webview'],
    why: 'src/core is the bottom layer: pure TypeScript that every other layer builds on',
  },
  shared: {
    banned: ['timeline', 'pubsub', 'cli', 'extension', 'webview'],
    why: 'src/shared holds only the wire formats and contracts host and webview share; it builds on src/core alone',
  },
  timeline: {
    banned: ['pubsub', 'cli', 'extension', 'webview', 'timeline/node'],
    browser: 'src/timeline runs in the browser too (the webview imports it); Node code goes in src/timeline/node',
    why: 'src/timeline (all but node/) serves sessions to any view, the webview included: it builds on src/core and src/shared, never on its Node side src/timeline/node',
  },
  'timeline/node': {
    banned: ['pubsub', 'cli', 'extension', 'webview'],
    why: "src/timeline/node is the timeline's Node side (workers, files, the loader); it builds on src/core, src/shared and src/timeline",
  },
  pubsub: {
    banned: ['timeline', 'cli', 'extension', 'webview'],
    why: 'src/pubsub is live Pub/Sub on the client library; it builds on src/core and src/shared',
  },
  cli: { banned: ['extension', 'webview'], why: 'the CLI never imports the extension or the webview: move what both need to src/shared or below' },
  extension: { banned: ['cli', 'webview'], why: 'the extension talks to the webview through src/shared/protocol.ts only: move what both need to src/shared' },
  webview: {
    banned: ['pubsub', 'cli', 'extension', 'timeline/node'],
    browser: 'the webview runs in a browser',
    why: 'the webview is a browser bundle: it reaches the host through src/shared/protocol.ts only, and of src/timeline imports the portable part alone (not src/timeline/node)',
  },
};

/** A Node built-in, as `node:x` or bare (`fs`, `fs/promises`). */
const NODE_BUILTIN = `^(node:|(${builtinModules.filter((m) => !m.startsWith('_')).join('|')})(/|$))`;

/** Node's globals, which a browser lacks. */
const NODE_GLOBALS = ['Buffer', 'process', 'global', 'require', 'module', 'exports', '__dirname', '__filename', 'setImmediate', 'clearImmediate'];

/**
 * A relative import of `banned` (a folder of src) from the folder `layer`: up to src and down, or
 * (for a folder of the layer's own) down from it, `./node/…` from src/timeline.
 */
function bannedPath(layer, banned) {
  const up = `(\\.\\./)+${banned}`;
  if (!banned.startsWith(`${layer}/`)) return up;
  return `(${up}|(\\./|(\\.\\./)+)${banned.slice(layer.length + 1)})`;
}

/** The import rules for one layer's folder. */
function layerRule(name) {
  const { banned, why, browser } = LAYERS[name];
  const message = `${why} (layer rule; see CONTRIBUTING.md).`;
  const patterns = [{ regex: `^(${banned.map((b) => bannedPath(name, b)).join('|')})(/|$)`, message }];
  if (browser) patterns.push({ regex: NODE_BUILTIN, message: `no Node built-ins: ${browser}.` });
  const paths =
    name === 'extension'
      ? []
      : [{ name: 'vscode', message: 'only src/extension imports vscode: keep the rest testable in plain Node / the browser (see STYLE.md).' }];
  const rules = { 'no-restricted-imports': ['error', { paths, patterns }] };
  if (browser) rules['no-restricted-globals'] = ['error', ...NODE_GLOBALS.map((name) => ({ name, message: `no Node globals: ${browser}.` }))];
  return rules;
}

/** The files of a layer's folder, less its sub-folders that are layers of their own (src/timeline/node). */
function layerFiles(name) {
  const inner = Object.keys(LAYERS).filter((o) => o.startsWith(`${name}/`));
  return { files: [`src/${name}/**/*.ts`], ignores: inner.map((o) => `src/${o}/**`) };
}

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', '.bench/**', 'media/**', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'smart'],
      'no-console': 'off',
    },
  },
  ...Object.keys(LAYERS).map((name) => ({ ...layerFiles(name), rules: layerRule(name) })),
  {
    // House rule: small files and functions (CONTRIBUTING.md, "Layer rules"); an exception says why in its header.
    files: ['src/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 500 }], 'max-lines-per-function': ['error', { max: 80 }] },
  },
  {
    // No import cycles anywhere in src: two modules that import each other are one module or a
    // missing lower layer.
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['**/*.cjs', '**/*.mjs', 'esbuild.js'],
    languageOptions: { globals: { require: 'readonly', module: 'writable', process: 'readonly', console: 'readonly', __dirname: 'readonly', URL: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
