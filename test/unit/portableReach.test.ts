// The portable timeline and the webview run in the browser: no Node built-in may be reached from
// them, not even through a core module they import (the lint rules see only direct imports).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { builtinsReached, importGraph } from '../support/importGraph';

const ROOT = join(__dirname, '..', '..');
const portable = (file: string) => (file.startsWith('timeline/') && !file.startsWith('timeline/node/')) || file.startsWith('webview/');

describe('the portable timeline and the webview reach no Node built-in', () => {
  it('finds the one planted in the lint fixture, through a core module', () => {
    const root = join(ROOT, 'test', 'fixtures', 'lint', 'src');
    const graph = importGraph(root);
    assert.deepEqual(builtinsReached(root, graph, ['timeline/reachesDisk.ts', 'timeline/query.ts']), ['node:fs  timeline/reachesDisk.ts > core/readsDisk.ts']);
  });

  it('src: none from any portable file', () => {
    const root = join(ROOT, 'src');
    const graph = importGraph(root);
    const starts = [...graph.keys()].filter(portable);
    assert.ok(starts.length > 40, `${starts.length} portable files`);
    assert.deepEqual(builtinsReached(root, graph, starts), []);
  });
});
