import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMAND_IDS, isCommandId } from '../../../../src/extension/commands/commandIds';

interface Manifest {
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus: Record<string, { command?: string; submenu?: string }[]>;
    keybindings?: { command: string }[];
  };
}

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../../package.json'), 'utf8')) as Manifest;
const declared = manifest.contributes.commands.map((c) => c.command);

/** `a` without what is in `b`. */
const without = (a: readonly string[], b: readonly string[]) => a.filter((x) => !b.includes(x));

describe('command ids (src/extension/commands/commandIds.ts) against package.json', () => {
  it('every id registered is declared in contributes.commands', () => {
    assert.deepEqual(without(COMMAND_IDS, declared), [], 'registered, not declared');
  });

  it('every declared id is registered', () => {
    assert.deepEqual(without(declared, COMMAND_IDS), [], 'declared, not registered');
  });

  it('names each command once, on both sides', () => {
    assert.equal(new Set(COMMAND_IDS).size, COMMAND_IDS.length, 'COMMAND_IDS repeats an id');
    assert.equal(new Set(declared).size, declared.length, 'package.json declares an id twice');
  });

  it('menus and keybindings reference only declared ids', () => {
    const referenced = [
      ...Object.entries(manifest.contributes.menus).flatMap(([menu, items]) => items.flatMap((i) => (i.command ? [[menu, i.command]] : []))),
      ...(manifest.contributes.keybindings ?? []).map((k) => ['keybindings', k.command]),
    ];
    assert.ok(referenced.length > 0);
    assert.deepEqual(
      referenced.filter(([, id]) => !declared.includes(id)),
      [],
    );
    assert.deepEqual(
      referenced.filter(([, id]) => !isCommandId(id)),
      [],
    );
  });

  it('follows the house form: seqscope.<area>.<verb>, category SeqScope', () => {
    for (const c of manifest.contributes.commands) {
      assert.match(c.command, /^seqscope\.[a-z][A-Za-z]*(\.[a-z][A-Za-z]*)?$/, c.command);
      assert.equal(c.category, 'SeqScope', `${c.command}'s category`);
    }
  });
});
