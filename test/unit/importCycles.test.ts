// No import cycle of any kind in src: between files (type-only imports included, which ESLint's
// import-x/no-cycle skips) and between the folders of src/core (capture, replay, sequencer…),
// whose files may each import only downwards while the folders still go round.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { cycles, folderGraph, importGraph } from '../support/importGraph';

const ROOT = join(__dirname, '..', '..');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'lint');

describe('import cycles (all imports, type-only too)', () => {
  it('finds the planted ones in the lint fixture: a value cycle, a type-only cycle, a folder cycle', () => {
    const graph = importGraph(FIXTURE);
    assert.deepEqual(cycles(graph), [
      ['src/core/cycleA.ts', 'src/core/cycleB.ts'],
      ['src/core/typeCycleA.ts', 'src/core/typeCycleB.ts'],
    ]);
    assert.deepEqual(cycles(folderGraph(graph, 'src/core/')), [['src/core/folderA', 'src/core/folderB']]);
  });

  const src = () => importGraph(join(ROOT, 'src'));

  it('src has none between files', () => {
    const graph = src();
    assert.ok(graph.size > 100, `${graph.size} files read`);
    assert.deepEqual(cycles(graph), []);
  });

  it('src/core has none between its folders', () => {
    assert.deepEqual(cycles(folderGraph(src(), 'core/')), []);
  });
});
