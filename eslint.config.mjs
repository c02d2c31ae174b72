// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/**
 * The layers, lowest first; a layer imports only from layers below it (CONTRIBUTING.md, "Layout"):
 * core ← shared ← timeline ← pubsub ← cli / extension / webview. `banned` lists what each may not
 * import; nothing but src/extension imports `vscode`, and the webview imports no Node built-in.
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
  timeline: { banned: ['pubsub', 'cli', 'extension', 'webview'], why: 'src/timeline serves sessions to any view; it builds on src/core and src/shared' },
  pubsub: {
    banned: ['timeline', 'cli', 'extension', 'webview'],
    why: 'src/pubsub is live Pub/Sub on the client library; it builds on src/core and src/shared',
  },
  cli: { banned: ['extension', 'webview'], why: 'the CLI never imports the extension or the webview: move what both need to src/shared or below' },
  extension: { banned: ['cli', 'webview'], why: 'the extension talks to the webview through src/shared/protocol.ts only: move what both need to src/shared' },
  webview: { banned: ['pubsub', 'cli', 'extension'], why: 'the webview is a browser bundle: it reaches the host through src/shared/protocol.ts only' },
};

/** The no-restricted-imports rule for one layer's folder. */
function layerRule(name) {
  const { banned, why } = LAYERS[name];
  const patterns = [{ regex: `^(\\.\\./)+(${banned.join('|')})(/|$)`, message: `${why} (layer rule; see CONTRIBUTING.md).` }];
  if (name === 'webview') patterns.push({ regex: '^node:', message: 'the webview runs in a browser: no Node built-ins.' });
  const paths =
    name === 'extension'
      ? []
      : [{ name: 'vscode', message: 'only src/extension imports vscode: keep the rest testable in plain Node / the browser (see STYLE.md).' }];
  return { 'no-restricted-imports': ['error', { paths, patterns }] };
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
  ...Object.keys(LAYERS).map((name) => ({ files: [`src/${name}/**/*.ts`], rules: layerRule(name) })),
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
