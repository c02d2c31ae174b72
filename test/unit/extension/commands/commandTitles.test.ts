import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMAND_IDS } from '../../../../src/extension/commands/commandIds';
import { commandTitles } from '../../../../src/extension/commands/commandTitles';

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../../package.json'), 'utf8')) as {
  contributes: { commands: { command: string; title: string }[] };
};

describe('command titles (src/extension/commands/commandTitles.ts)', () => {
  it('gives every command the title package.json declares, never its id', () => {
    const title = commandTitles(manifest);
    assert.equal(title('seqscope.replay.play'), 'Replay: Play');
    for (const id of COMMAND_IDS) {
      assert.equal(title(id), manifest.contributes.commands.find((c) => c.command === id)?.title, id);
      assert.doesNotMatch(title(id), /seqscope\./, id);
    }
  });

  it('refuses a package.json that leaves a command without a title', () => {
    const commands = manifest.contributes.commands.filter((c) => c.command !== 'seqscope.replay.play');
    assert.throws(() => commandTitles({ contributes: { commands } }), { name: 'RangeError', message: 'package.json gives no title for seqscope.replay.play' });
  });
});
