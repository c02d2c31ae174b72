// One error per failure: a failing command shows one notification with a next step and resolves;
// it never rethrows, which would make VS Code follow with "Command … resulted in an error".
// Errors by kind: the user's input names the setting that fixes it; a programming error is an
// internal error with the log and the issue reporter, never "Open Settings".
import assert from 'node:assert/strict';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { COMMAND_ALIASES, COMMAND_IDS, CommandId } from '../../src/extension/commands/commandIds';
import { reportError } from '../../src/extension/errors';
import type { SeqScopeApi } from '../../src/extension/extension';
import { failingCommand } from './hostProbes';
import { Restore, stubber } from './windowStubs';

const EXTENSION_ID = 'seqscope.seqscope';

/**
 * The commands that do something else without a session: a dialog or a picker (opening, live
 * Pub/Sub), the sample, the empty timeline, a setting, the log; nothing to close; a context-menu
 * command run without its tree node does nothing. Every other command needs one.
 */
const WITHOUT_SESSION: readonly CommandId[] = [
  'seqscope.capture.open',
  'seqscope.capture.openSample',
  'seqscope.capture.openOrderingSample',
  'seqscope.timeline.show',
  'seqscope.session.closeAll',
  'seqscope.timeline.reveal',
  'seqscope.tree.copyMessage',
  'seqscope.keys.sort',
  'seqscope.tree.loadMore',
  'seqscope.log.show',
  'seqscope.pubsub.attach',
  'seqscope.pubsub.tapTopic',
  'seqscope.pubsub.deleteLeftoverTaps',
  'seqscope.pubsub.recordings',
  'seqscope.pubsub.publishCapture',
];
/** The commands that act on a live session (Pub/Sub): without one they say so. */
const LIVE: readonly CommandId[] = ['seqscope.live.detach', 'seqscope.live.replayFromTime', 'seqscope.live.retap'];
const root = join(__dirname, '..', '..'); // out/integration -> the repository root

describe('command errors', function () {
  this.timeout(30_000);
  let api: SeqScopeApi;
  const restore: Restore = [];
  /** Each error notification: its message and the buttons it offered. */
  let shown: { message: string; items: string[] }[];

  before(async () => {
    api = await vscode.extensions.getExtension<SeqScopeApi>(EXTENSION_ID)!.activate();
  });

  beforeEach(() => {
    shown = [];
    stubber(restore)('showErrorMessage', (async (message: string, ...items: string[]) => void shown.push({ message, items })) as never);
  });

  afterEach(async () => {
    while (restore.length) restore.pop()!();
    await vscode.commands.executeCommand('seqscope.session.closeAll');
  });

  it('registers exactly the commands of COMMAND_IDS and the aliases of their old ids under seqscope.*', async () => {
    // VS Code adds commands of its own for the view (seqscope.sessions.focus, …).
    const ours = (await vscode.commands.getCommands(true)).filter((c) => c.startsWith('seqscope.') && !c.startsWith('seqscope.sessions.'));
    assert.deepEqual([...new Set(ours)].sort(), [...COMMAND_IDS, ...Object.keys(COMMAND_ALIASES)].sort());
  });

  it('a failing command shows one notification with its next step, and resolves', async () => {
    assert.equal(api.manager.all.length, 0);
    // No session: the message names the command by its title and what to do first.
    const message = await failingCommand('seqscope.replay.play');
    assert.equal(message, 'SeqScope: "Replay: Play" needs an open session: open a capture or attach to a subscription first.');
    assert.deepEqual(shown, [{ message, items: ['Open Capture…', 'Open Sample Capture'] }]);
  });

  it('every command that needs a session says so by its title, with the next step, never by its id', async () => {
    assert.equal(api.manager.all.length, 0);
    const titles = new Map(
      (
        vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { contributes: { commands: { command: string; title: string }[] } }
      ).contributes.commands.map((c) => [c.command, c.title]),
    );
    const needing = COMMAND_IDS.filter((id) => !WITHOUT_SESSION.includes(id));
    assert.ok(needing.length >= 15, `${needing.length} commands need a session`);
    for (const id of needing) {
      shown = [];
      const message = await failingCommand(id);
      const [what, next, items] = LIVE.includes(id)
        ? ['a live session', 'attach to a subscription or tap a topic first', ['Attach to Subscription…', 'Tap Topic…']]
        : ['an open session', 'open a capture or attach to a subscription first', ['Open Capture…', 'Open Sample Capture']];
      assert.equal(message, `SeqScope: "${titles.get(id)}" needs ${what}: ${next}.`, id);
      assert.deepEqual(shown[0].items, items, id);
      assert.doesNotMatch(message, /seqscope\.[a-z]/i, `${id}: no command id in what the user reads`);
    }
  });

  it("a bad automation argument is the caller's input, not an internal error", async () => {
    const sample = vscode.Uri.file(join(root, 'media', 'samples', 'cme-sample.jsonl'));
    const message = await failingCommand('seqscope.capture.open', sample, { inputFormat: 'xml' });
    assert.equal(message, 'SeqScope: the option inputFormat "xml" is not valid: pass "auto" (Pub/Sub messages) or "text" (bare payloads)');
    assert.deepEqual(shown[0].items, []);
    assert.equal(api.manager.all.length, 0, 'nothing opened');
  });

  it('a bad setting: one notification naming the setting, offering it', async () => {
    const config = vscode.workspace.getConfiguration('seqscope');
    await config.update('gapTimeout', 'soon', vscode.ConfigurationTarget.Global);
    try {
      const sample = vscode.Uri.file(join(root, 'media', 'samples', 'cme-sample.jsonl'));
      const message = await failingCommand('seqscope.capture.open', sample, {});
      assert.equal(message, 'SeqScope: gap-timeout "soon" is not valid: write a duration like 500ms, 10s or 2m (setting seqscope.gapTimeout)');
      assert.deepEqual(shown[0].items, ['Open Settings']);
      assert.equal(api.manager.all.length, 0, 'nothing opened');
    } finally {
      await config.update('gapTimeout', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a programming error (a stack overflow, an invariant RangeError) is an internal error, not "check your settings"', async () => {
    const recurse = (n: number): number => recurse(n + 1) + 1;
    let overflow: unknown;
    try {
      recurse(0);
    } catch (e) {
      overflow = e;
    }
    assert.ok(overflow instanceof RangeError);
    await reportError('seqscope.capture.open', overflow);
    await reportError('seqscope.capture.open', new RangeError('ringSize must be a power of two'));
    assert.equal(shown.length, 2);
    for (const { message, items } of shown) {
      assert.match(message, /^SeqScope: internal error in seqscope\.capture\.open: .+\. This is a bug in SeqScope; the log has the details\.$/);
      assert.deepEqual(items, ['Show Log', 'Report Issue']);
    }
    assert.match(shown[0].message, /Maximum call stack size exceeded/);
  });
});
