/**
 * The extension manifest (package.json) says what VS Code needs to run SeqScope where users run
 * it: in Restricted Mode (capture viewing works; settings that point it at a Pub/Sub project,
 * an emulator or a recording folder wait for trust), in remote and virtual windows, with every
 * setting scoped, a timeline that comes back after a reload and a capture editor that does not
 * take JSON files from the text editor.
 */
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SESSION_TOOL_SCHEMAS } from '../../../src/extension/agentTools/toolSchemas';
import { COMMAND_ALIASES, COMMAND_IDS, CommandAlias, withAliases } from '../../../src/extension/commands/commandIds';

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
    commands: { command: string; title: string; category?: string }[];
    languageModelTools?: {
      name: string;
      displayName: string;
      toolReferenceName?: string;
      modelDescription: string;
      userDescription?: string;
      icon?: string;
      inputSchema: unknown;
    }[];
    keybindings?: { command: string; key: string; mac?: string; when?: string }[];
    views: Record<string, { id: string; icon?: string }[]>;
    menus: Record<string, { command: string; when?: string; group?: string }[]>;
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
    assert.deepEqual([...(u.restrictedConfigurations ?? [])].sort(), [
      'seqscope.pubsub.emulatorHost',
      'seqscope.pubsub.projectId',
      'seqscope.pubsub.recordingDirectory',
      'seqscope.schemas',
    ]);
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
    for (const [name, scope] of Object.entries(scopes))
      assert.ok(
        ['application', 'machine', 'machine-overridable', 'window', 'resource', 'language-overridable'].includes(scope ?? ''),
        `${name} has a scope (${scope})`,
      );
    assert.equal(scopes['seqscope.pubsub.emulatorHost'], 'machine-overridable');
    assert.equal(scopes['seqscope.pubsub.recordingDirectory'], 'machine-overridable');
    assert.equal(scopes['seqscope.pubsub.projectId'], 'window');
    assert.equal(scopes['seqscope.preset'], 'window');
    assert.equal(scopes['seqscope.presets'], 'window', 'read with the other sequencing settings, per window');
    assert.equal(scopes['seqscope.schemas'], 'window', 'its relative paths are read from the workspace folder');
  });

  it('restores the timeline after a reload and opens captures as an optional editor', () => {
    assert.ok(pkg.activationEvents.includes('onWebviewPanel:seqscope.timeline'), 'the panel serializer activates the extension');
    const editors = pkg.contributes.customEditors ?? [];
    assert.equal(editors.length, 1);
    assert.equal(editors[0].viewType, 'seqscope.captureEditor');
    assert.equal(editors[0].priority, 'option', 'JSON files still open as text by default');
    assert.deepEqual(editors[0].selector.map((s) => s.filenamePattern).sort(), ['*.avro', '*.json', '*.json.gz', '*.jsonl', '*.jsonl.gz']);
  });

  it('binds no key that typing needs: every keybinding starts with a modifier (the replay keys live on the timeline canvas)', () => {
    // A single key bound in the workbench is taken from the Command Palette, the Search view and
    // every input while the panel is active (issue 28: "gld" typed into the palette moved the replay).
    const chords = (pkg.contributes.keybindings ?? []).flatMap((k) => [k.key, k.mac].filter((c): c is string => !!c).map((c) => [k.command, c]));
    // A chord's first press decides (after Ctrl+K the second key is the chord's own); F-keys type nothing.
    const bare = chords.filter(([, chord]) => !/^((ctrl|cmd|alt|meta|win)\+|f\d+$)/i.test(chord));
    assert.deepEqual(bare, [], 'keybindings without a modifier');
  });

  it('gives the Sessions view an icon, and its title at most three icons in any state (the rest under …)', () => {
    const view = pkg.contributes.views.seqscope.find((v) => v.id === 'seqscope.sessions');
    assert.ok(view?.icon && existsSync(join(ROOT, view.icon)), 'the view has an icon (shown where it is moved to the panel or another bar)');
    const primary = pkg.contributes.menus['view/title'].filter((m) => m.when?.includes('view == seqscope.sessions') && m.group?.startsWith('navigation'));
    // Every state of the context keys the primary actions read.
    const keys = [
      ...new Set(
        primary.flatMap((m) =>
          (m.when ?? '')
            .split('&&')
            .map((t) => t.trim().replace(/^!/, ''))
            .filter((t) => !t.startsWith('view ==')),
        ),
      ),
    ];
    assert.ok(keys.length < 10);
    for (let bits = 0; bits < 1 << keys.length; bits++) {
      const ctx = new Map(keys.map((k, i) => [k, (bits >> i) % 2 === 1]));
      const shown = primary.filter((m) =>
        (m.when ?? '').split('&&').every((t) => {
          const term = t.trim();
          if (term.startsWith('view ==')) return true;
          // Only `key`, `!key` and the view: a richer clause needs this check taught first.
          assert.match(term, /^!?[\w.]+$/, `a when clause this check reads: ${term}`);
          return term.startsWith('!') ? !ctx.get(term.slice(1)) : !!ctx.get(term);
        }),
      );
      assert.ok(shown.length <= 3, `${shown.length} title icons with ${JSON.stringify(Object.fromEntries(ctx))}: ${shown.map((m) => m.command).join(', ')}`);
    }
  });

  it('declares each language model tool the extension registers, with the input schema it reads', () => {
    const tools = pkg.contributes.languageModelTools ?? [];
    assert.deepEqual(tools.map((t) => t.name).sort(), Object.keys(SESSION_TOOL_SCHEMAS).sort());
    for (const t of tools) {
      assert.deepEqual(
        t.inputSchema,
        SESSION_TOOL_SCHEMAS[t.name as keyof typeof SESSION_TOOL_SCHEMAS],
        `${t.name}: package.json's inputSchema is the one the tool reads`,
      );
      assert.match(t.name, /^seqscope_[a-z]+(_[a-z]+)+$/, `${t.name}: named seqscope_verb_noun`);
      assert.match(t.toolReferenceName ?? '', /^seqscope[A-Z][A-Za-z]+$/, `${t.name}: a reference name for #-mentions`);
      assert.ok(t.displayName.length > 0 && (t.userDescription ?? '').length > 0, `${t.name}: a name and description users read`);
      assert.ok(t.modelDescription.length >= 200, `${t.name}: a model description that says what it answers and when to use it`);
      assert.match(t.icon ?? '', /^\$\([a-z-]+\)$/, `${t.name}: a codicon`);
    }
  });

  it('names every command seqscope.<area>.<verb>, category SeqScope; the old ids only as hidden aliases', () => {
    const aliases = Object.keys(COMMAND_ALIASES);
    for (const c of pkg.contributes.commands) {
      assert.equal(c.category, 'SeqScope', `${c.command}'s category`);
      if (aliases.includes(c.command)) continue;
      assert.match(c.command, /^seqscope\.[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/, c.command);
    }
    for (const id of COMMAND_IDS) assert.match(id, /^seqscope\.[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/, id);
    const palette = pkg.contributes.menus.commandPalette ?? [];
    for (const alias of aliases) {
      assert.ok(
        pkg.contributes.commands.some((c) => c.command === alias),
        `${alias} is declared (a key binding on it activates the extension)`,
      );
      assert.deepEqual(
        palette.filter((m) => m.command === alias),
        [{ command: alias, when: 'false' }],
        `${alias} is hidden from the Command Palette`,
      );
      const menus = Object.entries(pkg.contributes.menus).flatMap(([menu, items]) => items.filter((m) => m.command === alias).map(() => menu));
      assert.deepEqual(menus, ['commandPalette'], `${alias} is in no menu`);
    }
  });

  it('runs the same command under an alias as under its new id, and leaves the aliases out of the docs', () => {
    const handlers = Object.fromEntries(COMMAND_IDS.map((id) => [id, () => id])) as Record<(typeof COMMAND_IDS)[number], () => string>;
    const all = withAliases(handlers);
    for (const [alias, id] of Object.entries(COMMAND_ALIASES) as [CommandAlias, (typeof COMMAND_IDS)[number]][]) {
      assert.ok(COMMAND_IDS.includes(id), `${alias} stands for a command (${id})`);
      assert.equal(all[alias], handlers[id], `${alias} runs ${id}'s handler`);
    }
    for (const id of COMMAND_IDS) assert.equal(all[id], handlers[id], id);
    const docs = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => join('docs', f)),
    ];
    for (const doc of docs) {
      const text = readFileSync(join(ROOT, doc), 'utf8');
      for (const alias of Object.keys(COMMAND_ALIASES)) assert.ok(!new RegExp(`${alias.replace(/\./g, '\\.')}\\b`).test(text), `${doc} names ${alias}`);
    }
  });
});
