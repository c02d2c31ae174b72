/**
 * The extension manifest (package.json) says what VS Code needs to run SeqScope where users run
 * it: in Restricted Mode (capture viewing works; settings that point it at a Pub/Sub project,
 * an emulator or a recording folder wait for trust), in remote and virtual windows, with every
 * setting scoped, a timeline that comes back after a reload and a capture editor that does not
 * take JSON files from the text editor.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

interface Manifest {
  activationEvents: string[];
  extensionKind?: string[];
  capabilities?: {
    untrustedWorkspaces?: { supported: boolean | 'limited'; description?: string; restrictedConfigurations?: string[] };
    virtualWorkspaces?: boolean | { supported: boolean | 'limited'; description?: string };
  };
  contributes: {
    configuration: { properties: Record<string, { scope?: string }> };
    customEditors?: { viewType: string; displayName: string; priority?: string; selector: { filenamePattern: string }[] }[];
    commands: { command: string }[];
    walkthroughs?: { id: string; steps: { id: string; completionEvents?: string[]; media: { image?: string; markdown?: string; svg?: string } }[] }[];
  };
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
const settings = pkg.contributes.configuration.properties;

describe('the extension manifest (package.json)', () => {
  it('works in Restricted Mode, limited: the settings that reach out wait for trust', () => {
    const u = pkg.capabilities?.untrustedWorkspaces;
    assert.ok(u, 'capabilities.untrustedWorkspaces is declared (else VS Code disables SeqScope in untrusted workspaces)');
    assert.equal(u.supported, 'limited');
    assert.ok(u.description && u.description.length > 20, 'says what is limited');
    assert.deepEqual([...(u.restrictedConfigurations ?? [])].sort(), ['seqscope.pubsub.emulatorHost', 'seqscope.pubsub.projectId', 'seqscope.pubsub.recordingDirectory']);
    for (const name of u.restrictedConfigurations ?? []) assert.ok(settings[name], `${name} is a setting`);
  });

  it('declares virtual workspaces and runs where the workspace is (remote windows)', () => {
    const v = pkg.capabilities?.virtualWorkspaces;
    assert.ok(v !== undefined, 'capabilities.virtualWorkspaces is decided');
    assert.ok(typeof v === 'boolean' || !!v.description, 'a limited or refused virtual workspace says why');
    assert.deepEqual(pkg.extensionKind, ['workspace']);
  });

  it('scopes every setting: machine paths and hosts are machine-overridable, the rest per window', () => {
    const scopes = Object.fromEntries(Object.entries(settings).map(([name, s]) => [name, s.scope]));
    for (const [name, scope] of Object.entries(scopes)) assert.ok(['application', 'machine', 'machine-overridable', 'window', 'resource', 'language-overridable'].includes(scope ?? ''), `${name} has a scope (${scope})`);
    assert.equal(scopes['seqscope.pubsub.emulatorHost'], 'machine-overridable');
    assert.equal(scopes['seqscope.pubsub.recordingDirectory'], 'machine-overridable');
    assert.equal(scopes['seqscope.pubsub.projectId'], 'window');
    assert.equal(scopes['seqscope.preset'], 'window');
    assert.equal(scopes['seqscope.presets'], 'window', 'read with the other sequencing settings, per window');
  });

  it('restores the timeline after a reload and opens captures as an optional editor', () => {
    assert.ok(pkg.activationEvents.includes('onWebviewPanel:seqscope.timeline'), 'the panel serializer activates the extension');
    const editors = pkg.contributes.customEditors ?? [];
    assert.equal(editors.length, 1);
    assert.equal(editors[0].viewType, 'seqscope.captureEditor');
    assert.equal(editors[0].priority, 'option', 'JSON files still open as text by default');
    assert.deepEqual(editors[0].selector.map((s) => s.filenamePattern).sort(), ['*.avro', '*.json', '*.json.gz', '*.jsonl', '*.jsonl.gz']);
  });
});
