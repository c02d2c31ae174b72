// Facts that only hold inside a real VS Code extension host: the version we target, the
// extension under development loaded from this repository, activated, with its commands.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';

interface ExtensionManifest {
  name: string;
  publisher: string;
  main?: string;
  engines?: { vscode?: string };
  contributes?: { commands?: { command: string }[] };
}

/** The extension under test: the repository root once it is one, else the host smoke fixture. */
function extensionUnderTest(): { dir: string; manifest: ExtensionManifest } {
  const root = join(__dirname, '..', '..'); // out/integration -> repository root
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as ExtensionManifest;
  if (rootManifest.engines?.vscode && rootManifest.main) return { dir: root, manifest: rootManifest };
  const dir = join(root, 'test', 'fixtures', 'host-smoke');
  return { dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as ExtensionManifest };
}

describe('extension host smoke', () => {
  const { dir, manifest } = extensionUnderTest();
  const id = `${manifest.publisher}.${manifest.name}`;

  it('runs inside VS Code 1.100', () => {
    assert.match(vscode.version, /^1\.100\./);
  });

  it(`loads the extension under development (${id}) from this repository`, () => {
    const ext = vscode.extensions.getExtension(id);
    assert.ok(ext, `${id} is not among ${vscode.extensions.all.length} extensions`);
    assert.equal(ext.extensionUri.fsPath, dir);
  });

  it('activates the extension', async () => {
    const ext = vscode.extensions.getExtension(id);
    assert.ok(ext);
    await ext.activate();
    assert.equal(ext.isActive, true);
  });

  it('registers every command the manifest contributes', async () => {
    const contributed = (manifest.contributes?.commands ?? []).map((c) => c.command);
    assert.ok(contributed.length > 0, 'the manifest contributes no command');
    const registered = new Set(await vscode.commands.getCommands(true));
    assert.deepEqual(contributed.filter((c) => !registered.has(c)), []);
  });
});
