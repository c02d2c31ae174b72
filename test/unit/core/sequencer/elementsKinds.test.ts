import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

describe('engine arrays stay unboxed (V8 elements kinds)', () => {
  it('held positions, arrival times and deadlines are stored as doubles, also in a second sequencer', function () {
    this.timeout(60_000);
    const probe = join(__dirname, '..', '..', '..', 'support', 'elementsKindsProbe.ts');
    const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', probe], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const { boxed, missing, checked } = JSON.parse(r.stdout) as { boxed: string[]; missing: string[]; checked: number };
    // A probed field that is gone fails: the probe must follow the engine, not pass by skipping.
    assert.deepEqual(missing, [], `fields the probe reaches for are not arrays (update test/support/elementsKindsProbe.ts): ${missing.join(', ')}`);
    assert.ok(checked >= 8, `only ${checked} arrays were checked`);
    // Boxed numbers cost an allocation per held message and a pointer chase per comparison.
    assert.deepEqual(boxed, [], `arrays converted to boxed elements: ${boxed.join(', ')}`);
  });
});
