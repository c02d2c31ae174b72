// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const noVscode = {
  'no-restricted-imports': ['error', {
    paths: [{
      name: 'vscode',
      message: 'src/core, src/pubsub, src/cli, src/shared and src/webview must not import vscode: keep them testable in plain Node / the browser (see STYLE.md).',
    }],
  }],
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', '.bench/**', 'media/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'eqeqeq': ['error', 'smart'],
      'no-console': 'off',
    },
  },
  { files: ['src/core/**', 'src/pubsub/**', 'src/cli/**', 'src/webview/**', 'src/shared/**'], rules: noVscode },
  {
    files: ['**/*.cjs', '**/*.mjs', 'esbuild.js'],
    languageOptions: { globals: { require: 'readonly', module: 'writable', process: 'readonly', console: 'readonly', __dirname: 'readonly', URL: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
