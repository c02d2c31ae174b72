import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ESLint } from 'eslint';

const ROOT = join(__dirname, '..', '..');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'lint');

/** The project's lint rules over the fixture tree: file (relative to it) → the rules it broke. */
async function lintFixture(): Promise<Map<string, string[]>> {
  const eslint = new ESLint({ cwd: FIXTURE, overrideConfigFile: join(ROOT, 'eslint.config.mjs') });
  const results = await eslint.lintFiles(['src/**/*.ts']);
  return new Map(results.map((r) => [r.filePath.slice(FIXTURE.length + 1), r.messages.map((m) => m.ruleId ?? m.message)]));
}

describe('layer rules (eslint.config.mjs)', function () {
  this.timeout(120_000);
  let found: Map<string, string[]>;
  before(async () => {
    found = await lintFixture();
  });

  it('fail on a lower layer importing a higher one', () => {
    assert.deepEqual(found.get('src/core/importsWebview.ts'), ['no-restricted-imports']);
  });

  it('fail on the extension importing webview code, and on vscode outside the extension', () => {
    assert.deepEqual(found.get('src/extension/importsWebview.ts'), ['no-restricted-imports']);
    assert.deepEqual(found.get('src/webview/importsVscode.ts'), ['no-restricted-imports']);
  });

  it('fail on the webview importing the Node side of the timeline (src/timeline/node)', () => {
    assert.deepEqual(found.get('src/webview/importsTimelineNode.ts'), ['no-restricted-imports']);
  });

  it('fail on the portable timeline importing a Node built-in, the Node side, or using a Node global', () => {
    assert.deepEqual(found.get('src/timeline/importsNodeFs.ts'), ['no-restricted-imports']);
    assert.deepEqual(found.get('src/timeline/importsBareFs.ts'), ['no-restricted-imports']);
    assert.deepEqual(found.get('src/timeline/importsNodePart.ts'), ['no-restricted-imports']);
    assert.deepEqual(found.get('src/timeline/usesBuffer.ts'), ['no-restricted-globals']);
  });

  it('fail on an import cycle, in each of its files', () => {
    assert.deepEqual(found.get('src/core/cycleA.ts'), ['import-x/no-cycle']);
    assert.deepEqual(found.get('src/core/cycleB.ts'), ['import-x/no-cycle']);
  });

  it('pass a file that keeps to its layer', () => {
    assert.deepEqual(found.get('src/core/clean.ts'), []);
    assert.deepEqual(found.get('src/webview/view.ts'), []);
  });

  it('pass the webview importing the portable timeline, and the Node side importing Node and the portable part', () => {
    assert.deepEqual(found.get('src/webview/importsTimeline.ts'), []);
    assert.deepEqual(found.get('src/timeline/query.ts'), []);
    assert.deepEqual(found.get('src/timeline/node/loader.ts'), []);
  });
});
