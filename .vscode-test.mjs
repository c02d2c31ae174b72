// @vscode/test-cli configuration: the integration suite (test/integration, compiled to
// out/integration by scripts/vscode-host/build-suite.mjs) on desktop VS Code 1.100.3, downloaded
// by @vscode/test-electron. Where VS Code can be downloaded:
//   npm run test:desktop        (= node esbuild.js && node scripts/vscode-host/build-suite.mjs && vscode-test)
// Here (no download), `npm test` runs the same suite in the VS Code server: scripts/vscode-host.
// test/integration/restricted/ needs an untrusted folder, which only that runner opens
// (run-suite.mjs --restricted): it is left out here.
import { defineConfig } from '@vscode/test-cli';

export default defineConfig({
  label: 'integration',
  files: 'out/integration/*.test.js',
  version: '1.100.3',
  extensionDevelopmentPath: '.',
  workspaceFolder: 'test/fixtures/captures',
  launchArgs: ['--disable-extensions'],
  mocha: { ui: 'bdd', timeout: 60_000 },
});
