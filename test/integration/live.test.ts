/**
 * Live Pub/Sub inside the real VS Code extension host, against the real emulator (started here):
 * "Attach to Subscription…" through its QuickPick and its consume-or-tap question (answered by
 * stubs, as a user would click), live counts growing in the tree as messages are published,
 * then Detach: the tap subscription is deleted and the recording reopens as a capture session.
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { FakeQuickPick } from './windowStubs';
import type * as PubsubLayer from '../../src/pubsub';
import type { LiveResult } from '../../src/extension/liveArgs';
import type { SessionNode, SummaryNode } from '../../src/extension/sessionsTree';
import { failingCommand, until } from './hostProbes';
import { useLiveEmulator } from './liveEmulator';

describe('SeqScope live Pub/Sub in VS Code', function () {
  this.timeout(120_000);
  const live = useLiveEmulator('live Pub/Sub integration test', 'seqscope-it', [
    ['seqscope', 'seq', 'attribute:n'],
    ['seqscope', 'gapTimeout', '500ms'],
    ['seqscope.pubsub', 'liveWindowMessages', 100],
  ]);

  it('attach → tap instead → counts grow live → detach deletes the tap and reopens the recording', async () => {
    const { api, conn, layer, stub, text: treeText } = live;
    const [topic] = await conn.client.createTopic('orders-live');
    await topic.createSubscription('orders-consumer', { enableMessageOrdering: true });

    const asked: string[] = [];
    stub('showQuickPick', (async (items: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]>, options?: vscode.QuickPickOptions) => {
      const list = await items;
      asked.push(`${options?.title}: ` + list.map((i) => `${i.label} (${i.description})`).join(', '));
      return list.find((i) => i.label === 'orders-consumer' || i.label === 'Use settings');
    }) as never);
    stub('showWarningMessage', (async (message: string, ...rest: unknown[]) => {
      asked.push(message);
      return rest.find((r) => typeof r === 'string' && /Tap the Topic Instead/.test(r));
    }) as never);

    const result = await vscode.commands.executeCommand<LiveResult>('seqscope.pubsub.attach');
    assert.ok(result, 'attach returns the live session');
    assert.match(asked[0], /orders-consumer \(\$\(list-ordered\) message ordering on\)/, 'the QuickPick shows whether ordering is on');
    assert.match(asked[1], /consumes it/, 'the user is told what consuming means before anything is acked');
    assert.match(
      asked[2],
      /how should a tap on orders-live be sequenced\?: .*Use settings.*Preset: cme.*Customize/,
      'asked how to sequence, as Open Capture… asks',
    );
    assert.match(result.subscription, /subscriptions\/seqscope-tap-orders-live-/, 'a tap was made instead');

    const session = api.manager.get(result.id)!;
    assert.ok(session.live);
    const sessionNode = api.tree.getChildren(undefined).find((n) => (n as SessionNode).session === session) as SessionNode;
    const summaryNode = () => api.tree.getChildren(sessionNode).find((n) => n.kind === 'summary') as SummaryNode;

    const publish = async (from: number, to: number) => {
      const t = conn.client.topic('orders-live', { messageOrdering: true });
      await Promise.all(
        Array.from({ length: to - from }, (_, i) =>
          t.publishMessage({ data: Buffer.from(`order ${from + i}`), orderingKey: 'acct-7', attributes: { n: String(from + i) } }),
        ),
      );
    };
    await publish(0, 40);
    await until('40 delivered in the tree', () => /40 delivered/.test(treeText(summaryNode())) || undefined);
    // The settings (seqscope.seq attribute:n) were chosen: numbered by n.
    assert.match(
      treeText(sessionNode),
      /^tap · orders-live live · \d+\/s · n per ordering key · 1 key · 40 received/,
      `titled by what was tapped, saying how it is sequenced: ${treeText(sessionNode)}`,
    );
    assert.match(result.recording, /[\\/]orders-live-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.jsonl$/, 'the recording is named after the topic and the time, once');
    await publish(40, 100);
    await until('100 delivered in the tree', () => /100 delivered/.test(treeText(summaryNode())) || undefined);
    assert.equal(session.data.summary.gaps, 0);
    await until('the live status to count 100 received', () => session.live?.received === 100 || undefined, 5000);

    // SeqScope: Recordings… marks the recording being written, and offers no delete for it.
    let picker: FakeQuickPick | undefined;
    const pickerShown = new Promise<void>((r) => stub('createQuickPick', (() => (picker = new FakeQuickPick(r))) as never));
    const listed = Promise.resolve(vscode.commands.executeCommand('seqscope.pubsub.recordings'));
    await pickerShown;
    const recordingItem = picker!.items.find((i) => (i as { recording?: { path: string } }).recording?.path === result.recording);
    assert.ok(recordingItem, `${result.recording} is listed`);
    assert.match(recordingItem.detail ?? '', /recording now: detach to delete it/);
    assert.equal(recordingItem.buttons?.length, 1, 'reveal (or copy its path) only: no delete');
    picker!.hide();
    await listed;
    assert.match(await failingCommand('seqscope.replay.stepForward'), /detach the live session first/);

    // The window holds 100 arrivals (seqscope.pubsub.liveWindowMessages): the views move on to a
    // fresh one, the counts go on.
    await publish(100, 120);
    const window2 = await until('the second window', () => api.manager.all.find((s) => s.live && s.live.windows === 2 && s.data.arrivalCount === 20));
    assert.ok(!api.manager.all.includes(session), 'the full window left the tree');
    await until('120 received in the live status', () => window2.live?.received === 120 || undefined, 5000);
    const node2 = api.tree.getChildren(undefined).find((n) => (n as SessionNode).session === window2) as SessionNode;
    assert.match(treeText(node2), /120 received · window 2/);

    // Replay from a time in the future would acknowledge the whole backlog: refused, with why.
    assert.match(
      await failingCommand('seqscope.live.replayFromTime', window2.id, '2099-01-01T00:00:00Z'),
      /2099-01-01T00:00:00\.000Z is in the future: seeking there acknowledges every message published before it, including those not yet received: give a time in the past/,
    );

    await vscode.commands.executeCommand('seqscope.live.detach', window2.id);
    const tapName = layer.parseResourceName('subscriptions', result.subscription);
    await assert.rejects(layer.getSubscription(conn, tapName), (e: PubsubLayer.PubsubError) => e.kind === 'not-found', 'the tap is gone');
    const reopened = await until('the recording reopened as a capture', () => api.manager.all.find((s) => !s.live && s.data.paths[0] === result.recording));
    assert.equal(reopened.data.summary.received, 120, 'the recording holds every window');
    assert.equal(reopened.data.summary.delivered, 120);
    assert.ok(!api.manager.all.some((s) => s.live), 'the live session is closed');
    assert.ok(reopened.replay.run('stepForward'), 'replay works on the recording');

    // Replay Capture into Topic: the recording goes into another topic, one key in order.
    const [copy] = await conn.client.createTopic('orders-copy');
    const [copySub] = await copy.createSubscription('orders-copy-sub', { enableMessageOrdering: true });
    const received: string[] = [];
    copySub.on('message', (m) => {
      received.push(m.attributes.n);
      m.ack();
    });
    const published = await vscode.commands.executeCommand<PubsubLayer.PublishResult>('seqscope.pubsub.publishCapture', {
      file: result.recording,
      topic: 'orders-copy',
      pace: 'max',
    });
    assert.equal(published.published, 120);
    assert.equal(published.cancelled, false);
    await until('the copy to arrive', () => received.length >= 120 || undefined);
    await copySub.close();
    assert.deepEqual(
      received.map(Number),
      Array.from({ length: 120 }, (_, i) => i),
      'published in order, with attributes kept',
    );
  });
});
