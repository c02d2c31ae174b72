/**
 * Live taps as users live them, inside the real VS Code extension host against the real emulator
 * (started here; it takes any project id, so a topic of "another project" is real here too):
 * - several topics, one of them in another project, tapped into one session (issue 25);
 * - a CME-style stream with known skips and re-publishes, tapped with each sequencing choice —
 *   the settings, the cme preset, custom values — counted live and after Detach;
 * - an open gap visible while it waits, before its timeout;
 * - a wrong project: Open Settings offered;
 * - the emulator killed and restarted: the tap is named as gone with Re-tap, and Re-tap continues
 *   the same session and recording with nothing acked lost (issue 26).
 * Dialogs are answered by stubs, as a user would click.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as vscode from 'vscode';
import type * as PubsubLayer from '../../src/pubsub';
import type { Session } from '../../src/extension/session';
import type { LiveResult } from '../../src/extension/liveArgs';
import type { KeyNode, SessionNode, SummaryNode } from '../../src/extension/sessionsTree';
import { openStateWords } from '../../src/core/sequencer/openState';
import { until } from './hostProbes';
import { useLiveEmulator } from './liveEmulator';

const PROJECT = 'seqscope-taps-it';
/** The publisher's project (CME's, for CME Smart Stream): not the one SeqScope is set to. */
const OTHER_PROJECT = 'cme-smartstream';

type Answer = (list: readonly (vscode.QuickPickItem | string)[], options: vscode.QuickPickOptions | undefined) => unknown;

describe('SeqScope live taps in VS Code: several topics, sequencing choices, open gaps, a lost tap', function () {
  this.timeout(180_000);
  const live = useLiveEmulator('live taps integration test', PROJECT, [
    ['seqscope', 'key', 'attribute:Channel'],
    ['seqscope', 'seq', 'attribute:MsgSeqNum'],
    ['seqscope', 'seqBits', 32],
    ['seqscope', 'gapTimeout', '500ms'],
  ]);

  async function setting(section: string, key: string, value: unknown): Promise<void> {
    await vscode.workspace.getConfiguration(section).update(key, value, vscode.ConfigurationTarget.Global);
  }

  function sessionNode(s: Session): SessionNode {
    return live.api.tree.getChildren(undefined).find((n) => (n as SessionNode).session === s) as SessionNode;
  }
  function summaryText(s: Session): string {
    return live.text(live.api.tree.getChildren(sessionNode(s)).find((n) => n.kind === 'summary') as SummaryNode);
  }
  function keyTexts(s: Session): string[] {
    return live.api.tree
      .getChildren(sessionNode(s))
      .filter((n): n is KeyNode => n.kind === 'key')
      .map(live.text);
  }

  /** Answers every quick pick through `answer` (by its title), and input boxes by their prompt. */
  function answerPicks(answer: Answer, inputs: [RegExp, string][] = []): string[] {
    const asked: string[] = [];
    live.stub('showQuickPick', (async (
      items: readonly (vscode.QuickPickItem | string)[] | Thenable<readonly (vscode.QuickPickItem | string)[]>,
      options?: vscode.QuickPickOptions,
    ) => {
      const list = await items;
      asked.push(`${options?.title}: ${list.map((i) => (typeof i === 'string' ? i : i.label)).join(', ')}`);
      return answer(list, options);
    }) as never);
    live.stub('showInputBox', (async (options?: vscode.InputBoxOptions) => {
      asked.push(`input: ${options?.prompt}`);
      const found = inputs.find(([re]) => re.test(options?.prompt ?? ''));
      if (!found) throw new Error(`unexpected input box: ${options?.prompt}`);
      const problem = await options?.validateInput?.(found[1]);
      if (problem) throw new Error(`"${found[1]}" refused: ${JSON.stringify(problem)}`);
      return found[1];
    }) as never);
    return asked;
  }

  /** Publishes CME-style messages (Channel, MsgSeqNum, SendingTime; ordering key = channel), in order. */
  async function publish(topic: string, channel: string, numbers: readonly number[]): Promise<void> {
    const t = live.conn.client.topic(topic, { messageOrdering: true });
    await Promise.all(
      numbers.map((n) =>
        t.publishMessage({
          data: Buffer.from(JSON.stringify({ MsgSeqNum: n, Channel: channel })),
          orderingKey: channel,
          attributes: { Channel: channel, MsgSeqNum: String(n), SendingTime: String(Date.now()) },
        }),
      ),
    );
  }

  async function detach(s: Session, recording: string): Promise<Session> {
    await vscode.commands.executeCommand('seqscope.live.detach', s.id);
    return until('the recording reopened as a capture', () => live.api.manager.all.find((x) => !x.live && x.data.paths[0] === recording));
  }

  it('Tap Topic… takes several topics, one of another project by its path, into one session: keys per topic, one recording, every tap deleted on Detach', async () => {
    await live.conn.client.createTopic('md-310');
    const otherPath = `projects/${OTHER_PROJECT}/topics/md-318`;
    await live.conn.client.createTopic(otherPath);
    const asked = answerPicks(
      (list, options) => {
        if (options?.title?.startsWith('Tap topics of'))
          return list.filter((i) => typeof i !== 'string' && (i.label === 'md-310' || i.label.includes('Topics by Path')));
        if (/be sequenced\?/.test(options?.title ?? '')) return list.find((i) => typeof i !== 'string' && i.label === 'Use settings');
        return undefined;
      },
      [[/^Topic ids of seqscope-taps-it, or full paths projects\/<project>\/topics\/<topic>/, otherPath]],
    );
    const result = await vscode.commands.executeCommand<LiveResult>('seqscope.pubsub.tapTopic');
    assert.ok(result, `tapped: ${asked.join(' | ')}`);
    assert.ok(asked[0].startsWith(`Tap topics of ${PROJECT}: md-310, `), asked[0]);
    assert.match(asked[2], /how should a tap on 2 topics \(md-310, md-318\) be sequenced\?/);
    assert.equal(result.subscriptions.length, 2);
    for (const sub of result.subscriptions)
      assert.match(sub, new RegExp(`^projects/${PROJECT}/subscriptions/seqscope-tap-md-3(10|18)-`), 'the taps are made in our project');
    assert.match(result.recording, /[\\/]md-310\+1-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.jsonl$/);
    const session = live.api.manager.get(result.id)!;
    assert.equal(session.title, 'tap · md-310 + md-318');

    // The same channel number and sequence on both topics: two keys, never one with duplicates.
    const numbers = Array.from({ length: 20 }, (_, i) => i + 1);
    await publish('md-310', '310', numbers);
    await publish(otherPath, '310', numbers);
    await until('40 delivered, live', () => /40 delivered/.test(summaryText(session)) || undefined, 60_000);
    assert.deepEqual(session.data.keyNames.slice().sort(), ['md-310/310', 'md-318/310']);
    assert.equal(session.data.summary.duplicates, 0);
    assert.equal(session.data.summary.gaps, 0);
    assert.match(live.text(sessionNode(session)), /^tap · md-310 \+ md-318 live · .* · 2 keys · 40 received/);

    const reopened = await detach(session, result.recording);
    for (const sub of result.subscriptions) {
      await assert.rejects(
        live.layer.getSubscription(live.conn, live.layer.parseResourceName('subscriptions', sub)),
        (e: PubsubLayer.PubsubError) => e.kind === 'not-found',
        `${sub} deleted`,
      );
    }
    assert.equal(reopened.data.summary.received, 40);
    assert.equal(reopened.data.summary.delivered, 40);
    assert.deepEqual(reopened.data.summary.byKey.map((k) => [k.key, k.delivered]).sort(), [
      ['md-310/310', 20],
      ['md-318/310', 20],
    ]);
    const lines = readFileSync(result.recording, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      [...new Set(lines.map((l) => l.topic))].sort(),
      [`projects/${OTHER_PROJECT}/topics/md-318`, `projects/${PROJECT}/topics/md-310`],
      'each line names its topic',
    );
    await vscode.commands.executeCommand('seqscope.session.closeAll');
  });

  it('a CME-style stream with skips and re-publishes, tapped as set, with the cme preset and custom: exact counts live and after Detach', async () => {
    const topic = 'cme-md-310';
    await live.conn.client.createTopic(topic);
    let choice = '';
    let described: string | undefined;
    answerPicks(
      (list, options) => {
        const title = options?.title ?? '';
        if (title.startsWith('Tap topics of')) return list.filter((i) => typeof i !== 'string' && i.label === topic);
        if (/be sequenced\?/.test(title)) {
          const item = list.find((i): i is vscode.QuickPickItem => typeof i !== 'string' && i.label === choice);
          described = item?.description;
          return item;
        }
        if (/Sequence width/.test(title)) return '32';
        return undefined;
      },
      [
        [/^Key/, 'orderingKey'],
        [/^Sequence/, 'attribute:MsgSeqNum'],
        [/^Sender's time/, 'attribute:SendingTime'],
        [/^Gap timeout/, '300ms'],
        [/^Capacity/, '1000'],
      ],
    );
    const tapped: { choice: string; result: LiveResult; session: Session; label: RegExp; described: string | undefined }[] = [];
    for (const [c, label] of [
      ['Use settings', /MsgSeqNum per Channel \(32-bit\)/],
      ['Preset: cme', /MsgSeqNum per Channel \(32-bit\)/],
      ['Customize…', /MsgSeqNum per ordering key \(32-bit\)/],
    ] as const) {
      choice = c;
      const result = await vscode.commands.executeCommand<LiveResult>('seqscope.pubsub.tapTopic');
      assert.ok(result, c);
      tapped.push({ choice: c, result, session: live.api.manager.get(result.id)!, label, described });
    }
    // 1…60 without 20 and 40 (two gaps of one), then 10…14 published again (second publishes).
    const numbers = Array.from({ length: 60 }, (_, i) => i + 1).filter((n) => n !== 20 && n !== 40);
    await publish(topic, '310', numbers);
    await publish(topic, '310', [10, 11, 12, 13, 14]);
    const expected = { received: 63, delivered: 58, gaps: 2, lost: 2, duplicates: 5, redeliveries: 0, late: 0, invalid: 0 };
    const counts = (s: Session) => {
      const m = s.data.summary;
      return {
        received: m.received,
        delivered: m.delivered,
        gaps: m.gaps,
        lost: m.lost,
        duplicates: m.duplicates,
        redeliveries: m.redeliveries,
        late: m.late,
        invalid: m.invalid,
      };
    };
    for (const t of tapped) {
      // The cme preset waits its 10 s gap timeout before it declares the gaps.
      await until(
        `${t.choice}: the gaps declared live`,
        () => (counts(t.session).gaps === 2 && counts(t.session).delivered === 58 && counts(t.session).received === 63) || undefined,
        60_000,
      );
      assert.deepEqual(counts(t.session), expected, t.choice);
      assert.match(live.text(sessionNode(t.session)), t.label, `${t.choice}: the row says how it is sequenced`);
      assert.match(summaryText(t.session), /58 delivered/);
      if (t.choice !== 'Customize…') assert.equal(t.session.data.summary.options, t.described, `${t.choice}: sequenced as the picker said`);
    }
    for (const t of tapped) {
      const reopened = await detach(t.session, t.result.recording);
      assert.deepEqual(counts(reopened), expected, `${t.choice}, reopened after Detach`);
      assert.deepEqual(reopened.data.keyNames, ['310']);
    }
    await vscode.commands.executeCommand('seqscope.session.closeAll');
  });

  it("an open gap shows in the tree and the status bar's longest wait before its timeout, and closes when the number arrives", async () => {
    const topic = 'cme-md-312';
    await live.conn.client.createTopic(topic);
    // The start window is as long as the gap timeout: 30 s leaves ample time to see the gap open
    // and close it before it would be declared.
    const result = await vscode.commands.executeCommand<LiveResult>('seqscope.pubsub.tapTopic', {
      topic,
      options: { key: 'attribute:Channel', seq: 'attribute:MsgSeqNum', seqBits: 32, gapTimeout: '30s' },
    });
    const session = live.api.manager.get(result.id)!;
    await publish(topic, '312', [1, 2, 3, 4, 5]);
    await until('the start window to show', () => keyTexts(session).find((k) => /collecting: \d+ s left · 5 held/.test(k)));
    await until('the start window to end', () => session.data.summary.delivered === 5 || undefined, 60_000);
    await publish(topic, '312', [7, 8]);
    const waiting = await until('the key to wait for #6', () => keyTexts(session).find((k) => /waiting for #6 · [\d.]+ s of 30 s · 2 held/.test(k)));
    assert.match(waiting, /^312 5 delivered/);
    // What the status bar shows: the longest wait, as of the session's last refresh (every 500 ms).
    const open = await until("the status bar's longest wait", () => session.live!.longestOpen);
    assert.match(openStateWords(open.state), /^waiting for #6 · [\d.]+ s of 30 s/);
    assert.equal(session.live!.openKeys, 1);
    assert.equal(session.data.summary.gaps, 0, 'not declared: its timeout has not passed');
    await publish(topic, '312', [6]);
    await until('the gap to close', () => (session.data.summary.delivered === 8 && !keyTexts(session).some((k) => /waiting/.test(k))) || undefined);
    assert.equal(session.data.summary.gaps, 0);
    assert.equal(session.data.summary.late, 0);
    await until('no key open', () => session.live!.openKeys === 0 || undefined);
    await detach(session, result.recording);
    await vscode.commands.executeCommand('seqscope.session.closeAll');
  });

  it('a project with no topics or subscriptions offers Open Settings (and the way on), not a dead end', async () => {
    await setting('seqscope.pubsub', 'projectId', 'seqscope-nothing-here');
    const shown: { message: string; items: string[] }[] = [];
    live.stub('showInformationMessage', (async (message: string, ...items: unknown[]) => {
      shown.push({ message, items: items.filter((i): i is string => typeof i === 'string') });
      return 'Open Settings';
    }) as never);
    const c = vscode.commands as unknown as { executeCommand: (id: string, ...args: unknown[]) => Thenable<unknown> };
    const through = c.executeCommand;
    const opened: unknown[][] = [];
    c.executeCommand = (id: string, ...args: unknown[]) => {
      if (id === 'workbench.action.openSettings') {
        opened.push(args);
        return Promise.resolve(undefined);
      }
      return through.call(vscode.commands, id, ...args);
    };
    try {
      answerPicks(() => undefined);
      assert.equal(await vscode.commands.executeCommand('seqscope.pubsub.tapTopic'), undefined);
      await until('the settings opened on the project id', () => opened.length === 1 || undefined);
      assert.deepEqual(opened[0], ['seqscope.pubsub.projectId']);
      assert.match(shown[0].message, /project seqscope-nothing-here has no topics \(the project is seqscope\.pubsub\.projectId, on the emulator at /);
      assert.deepEqual(shown[0].items, ['Topics by Path…', 'Use Another Project…', 'Open Settings']);

      assert.equal(await vscode.commands.executeCommand('seqscope.pubsub.attach'), undefined);
      await until('the settings opened again', () => opened.length === 2 || undefined);
      assert.match(shown[1].message, /project seqscope-nothing-here has no subscriptions/);
      assert.deepEqual(shown[1].items, ['Tap Topic…', 'Use Another Project…', 'Open Settings']);
    } finally {
      c.executeCommand = through;
      await setting('seqscope.pubsub', 'projectId', PROJECT);
    }
  });

  it('the emulator killed and restarted: the tap is named as gone with Re-tap, which continues the same session and recording; nothing acked is lost, what was missed shows as a gap', async () => {
    const topic = 'cme-md-318';
    await live.conn.client.createTopic(topic);
    const result = await vscode.commands.executeCommand<LiveResult>('seqscope.pubsub.tapTopic', { topic, options: {} });
    const session = live.api.manager.get(result.id)!;
    await publish(
      topic,
      '318',
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    await until('30 delivered', () => session.data.summary.delivered === 30 || undefined);
    const warnings: string[] = [];
    let clickRetap!: (pick: string) => void;
    const retapClicked = new Promise<string>((r) => (clickRetap = r));
    live.stub('showWarningMessage', (async (message: string, ...items: unknown[]) => {
      warnings.push(`${message} [${items.filter((i) => typeof i === 'string').join(', ')}]`);
      return retapClicked;
    }) as never);

    await live.emu.restart();
    // The emulator keeps nothing: the topic is made again, and what is published while there is no tap is missed.
    await until('the topic made again', () =>
      live.conn.client.createTopic(topic).then(
        () => true,
        (e: { code?: number }) => e.code === 6 || undefined,
      ),
    );
    await until('the tap named as gone', () => session.live?.tapGone || undefined, 60_000);
    assert.match(
      warnings.join('\n'),
      /the tap seqscope-tap-cme-md-318-\S+ is gone: the server no longer has it .* Re-tap makes a new one and continues this session and recording\. \[Re-tap\]/,
    );
    assert.match(live.text(sessionNode(session)), /^tap · cme-md-318 tap is gone · /, 'the tree row says why, first');
    // The timeline says it too, in its header, and names what was tapped with the recording under it.
    const header = session.timeline.info();
    assert.deepEqual(header.connection, { state: 'disconnected', reason: 'tap is gone', next: 'Re-tap makes a new one and continues the recording' });
    assert.equal(header.title, 'tap · cme-md-318');
    assert.match(header.source ?? '', /^recording cme-md-318-\S+\.jsonl · through seqscope-tap-cme-md-318-\S+$/);
    assert.match(session.live!.detail, /is gone/);
    await publish(topic, '318', [31, 32, 33, 34, 35]);

    // Re-tap from the session's own action (the tree's), while the warning is still on screen.
    await vscode.commands.executeCommand('seqscope.live.retap', session.id);
    await until(
      'live again, on a new tap',
      () => (session.live?.state === 'live' && !session.live.tapGone && session.live.subscription !== result.subscription) || undefined,
      60_000,
    );
    // The warning's own Re-tap, clicked late, says what happened instead of tapping again.
    const retapped = session.live!.subscription;
    const infos: string[] = [];
    live.stub('showInformationMessage', (async (message: string) => void infos.push(message)) as never);
    clickRetap('Re-tap');
    await until('the stale notice answered in words', () => infos.length > 0 || undefined);
    assert.match(infos[0], /^SeqScope: tap · cme-md-318 was re-tapped at \d\d:\d\d:\d\d \(now reading seqscope-tap-cme-md-318-\S+\): nothing more to do$/);
    assert.equal(session.live!.subscription, retapped, 'not tapped again');
    assert.equal(session.timeline.info().connection, undefined, 'receiving again: the header says nothing more');
    assert.equal(warnings.length, 1, 'one warning for the gone tap');
    assert.match(
      session.live!.detail,
      /re-tapped cme-md-318 as seqscope-tap-cme-md-318-.*: what was published between .* and now was not delivered to any tap and is missing from the recording \(it shows as gaps\)/,
    );
    await publish(
      topic,
      '318',
      Array.from({ length: 15 }, (_, i) => i + 36),
    );
    await until('the later messages in the same session', () => session.data.summary.delivered === 45 || undefined, 60_000);
    assert.ok(live.api.manager.all.includes(session), 'the same session');
    assert.equal(session.live!.recording, result.recording, 'the same recording');
    await until('the missed numbers declared lost', () => session.data.summary.gaps === 1 || undefined);
    assert.equal(session.data.summary.lost, 5);

    const reopened = await detach(session, result.recording);
    const numbers = readFileSync(result.recording, 'utf8')
      .trim()
      .split('\n')
      .map((l) => Number(JSON.parse(l).message.attributes.MsgSeqNum));
    assert.deepEqual(
      numbers,
      [...Array.from({ length: 30 }, (_, i) => i + 1), ...Array.from({ length: 15 }, (_, i) => i + 36)],
      'every acked message, once, in order',
    );
    assert.equal(reopened.data.summary.received, 45);
    assert.equal(reopened.data.summary.gaps, 1);
    assert.equal(reopened.data.summary.lost, 5);
    await vscode.commands.executeCommand('seqscope.session.closeAll');
  });
});
