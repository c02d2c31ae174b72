import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMAND_ALIASES, COMMAND_IDS, isCommandAlias, isCommandId } from '../../../../src/extension/commands/commandIds';

interface Manifest {
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus: Record<string, { command?: string; submenu?: string }[]>;
    keybindings?: { command: string }[];
  };
}

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../../package.json'), 'utf8')) as Manifest;
const declared = manifest.contributes.commands.map((c) => c.command);
/** Every id registered: the commands and the aliases of their old ids. */
const registered = [...COMMAND_IDS, ...Object.keys(COMMAND_ALIASES)];

/** `a` without what is in `b`. */
const without = (a: readonly string[], b: readonly string[]) => a.filter((x) => !b.includes(x));

describe('command ids (src/extension/commands/commandIds.ts) against package.json', () => {
  it('every id registered is declared in contributes.commands', () => {
    assert.deepEqual(without(registered, declared), [], 'registered, not declared');
  });

  it('every declared id is registered', () => {
    assert.deepEqual(without(declared, registered), [], 'declared, not registered');
  });

  it('names each command once, on both sides', () => {
    assert.equal(new Set(registered).size, registered.length, 'COMMAND_IDS repeats an id, or an alias is a command id');
    assert.equal(new Set(declared).size, declared.length, 'package.json declares an id twice');
  });

  it('menus and keybindings reference only declared ids; an alias only to hide it from the palette', () => {
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
      referenced.filter(([menu, id]) => !isCommandId(id) && !(menu === 'commandPalette' && isCommandAlias(id))),
      [],
    );
  });
});
