// Facts that only hold inside a real VS Code extension host: the version we target, and the
// extension loaded from this repository (not an installed copy), activated, with every command
// its manifest contributes registered.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

const EXTENSION_ID = 'seqscope.seqscope';
const root = join(__dirname, '..', '..'); // out/integration -> the repository root

describe('extension host smoke', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    contributes?: { commands?: { command: string }[] };
  };

  // The host tiers run on the oldest VS Code engines.vscode allows and on the newest
  // (scripts/vscode-host/common.mjs, HOSTS); the server passes the one it is on.
  const expected = process.env.SEQSCOPE_VSCODE_VERSION ?? '1.100.3';
  it(`runs inside VS Code ${expected}`, () => {
    assert.equal(vscode.version, expected);
  });

  it(`loads ${EXTENSION_ID} from this repository`, () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is not among the ${vscode.extensions.all.length} extensions`);
    assert.equal(ext.extensionUri.fsPath, root);
  });

  it('activates the extension', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('registers every command the manifest contributes', async () => {
    const contributed = (manifest.contributes?.commands ?? []).map((c) => c.command);
    assert.ok(contributed.length > 0, 'the manifest contributes no command');
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(
      contributed.filter((c) => !registered.has(c)),
      [],
    );
  });
});
