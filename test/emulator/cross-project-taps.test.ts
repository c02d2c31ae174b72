/**
 * Cross-project and multi-topic taps on the emulator (it takes any project id, and has no IAM:
 * the permission cases are unit tests, test/unit/pubsub/tap.test.ts). As CME Smart Stream works:
 * the topics are in CME's project, one per channel; the taps are made in the user's project, and
 * `seqscope record --topic … --topic …` records every channel into one file whose keys are per
 * topic.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runReplay } from '../../src/core/replay/replayRun';
import { resolveOptions } from '../../src/core/sequencer/sequencingOptions';
import { GapEvent, TraceEvent } from '../../src/core/trace/traceEvents';
import { findLeftoverTaps } from '../../src/pubsub/tap';
import { useEmulator, PROJECT, runCli, startCli, tempDir, uniqueId, waitFor } from './emulatorSupport';

const SAMPLE = join(__dirname, '../../media/samples/cme-sample.jsonl');
/** The publisher's project: not the one the CLI connects to (PUBSUB_PROJECT_ID is seqscope-test). */
const CME_PROJECT = 'cme-smartstream';

describe('emulator: taps on topics of another project, several into one recording', function () {
  const env = useEmulator();

  it("record --topic projects/<other>/topics/A --topic …B,C: one recording, keys per topic, the sample's exact findings; the taps live in our project and are deleted", async () => {
    const { emu, conn } = env;
    const dir = tempDir();
    // One topic per channel, as CME publishes, named as CME names them.
    const channels = ['310', '312', '318'];
    const stem = uniqueId('CERT.SSCL.GCP.MD.RT.CMEG.FIXBIN.v01000.INCR');
    const topics = channels.map((c) => `projects/${CME_PROJECT}/topics/${stem}.${c}`);
    for (const t of topics) await conn.client.createTopic(t);
    const lines = readFileSync(SAMPLE, 'utf8').trim().split('\n');
    const perChannel = channels.map((c) => {
      const file = join(dir, `ch-${c}.jsonl`);
      writeFileSync(file, lines.filter((l) => JSON.parse(l).message.attributes.Channel === c).join('\n') + '\n');
      return file;
    });

    const out = join(dir, 'three-channels.jsonl');
    // Repeated and comma-separated alike.
    const rec = await startCli(emu, [
      'record',
      '--topic',
      topics[0],
      '--topic',
      `${topics[1]},${topics[2]}`,
      '--out',
      out,
      '--max-messages',
      String(lines.length),
      '--duration',
      '90s',
      '--preset',
      'cme',
      '--json',
    ]);
    await waitFor('the three taps', () => (rec.stderr.match(/tapping/g) ?? []).length === 3 || rec.child.exitCode !== null);
    assert.match(rec.stderr, /3 topics into one recording: each line carries its "topic", and keys are per topic/);
    for (const t of topics)
      assert.match(
        rec.stderr,
        new RegExp(`tapping ${t.replace(/\./g, '\\.')} through projects/${PROJECT}/subscriptions/seqscope-tap-`),
        'the tap is made in our project',
      );
    for (let i = 0; i < channels.length; i++) {
      const pub = await runCli(emu, ['publish', perChannel[i], '--topic', topics[i], '--pace', 'max', '--json']);
      assert.equal(pub.code, 0, pub.stderr);
    }
    assert.equal(await rec.exited, 0, rec.stderr);
    const { recorded, summary } = JSON.parse(rec.stdout);
    assert.deepEqual(recorded.topics, topics);
    assert.equal(recorded.subscriptions.length, 3);
    assert.equal(recorded.received, lines.length);
    // The sample's ground truth (media/samples/README.md), unchanged by the split into topics.
    assert.equal(summary.received, 3006);
    assert.equal(summary.delivered, 2996);
    assert.equal(summary.gaps, 2);
    assert.equal(summary.lost, 4);
    assert.equal(summary.duplicates, 10);
    assert.equal(summary.invalid, 0);
    assert.deepEqual(
      summary.byKey.map((k: { key: string }) => k.key).sort(),
      channels.map((c) => `${stem}.${c}/${c}`),
    );

    const recordedLines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.equal(recordedLines.length, lines.length);
    for (const r of recordedLines) assert.equal(r.topic, topics[channels.indexOf(r.message.attributes.Channel)], 'each line names its topic');

    // Keys never meet across topics: sequenced as one stream per topic (--key none), the three
    // channels are still three sequences with the sample's two gaps.
    const events: TraceEvent[] = [];
    const { summary: oneStream } = await runReplay({ paths: [out], options: resolveOptions({ preset: 'cme', key: 'none' }), listener: (e) => events.push(e) });
    assert.equal(oneStream.keys, 3);
    assert.equal(oneStream.gaps, 2);
    assert.equal(oneStream.duplicates, 10);
    const gaps = events
      .filter((e): e is GapEvent => e.type === 'gap')
      .map((g) => `${g.key}:${g.from}-${g.to}`)
      .sort();
    assert.deepEqual(gaps, [`${stem}.310:41517-41519`, `${stem}.318:7777-7777`]);

    assert.deepEqual(await findLeftoverTaps(conn), [], 'every tap was deleted');
  });

  it('a topic of another project that does not exist: one line naming it, exit 2, no tap left', async () => {
    const { emu, conn } = env;
    const [t] = await conn.client.createTopic(`projects/${CME_PROJECT}/topics/${uniqueId('there')}`);
    const missing = `projects/${CME_PROJECT}/topics/${uniqueId('not-there')}`;
    const r = await runCli(emu, ['record', '--topic', t.name, '--topic', missing, '--out', join(tempDir(), 'x.jsonl')]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`topic ${missing} does not exist`));
    assert.deepEqual(await findLeftoverTaps(conn), [], 'the tap made on the first topic was deleted');
  });
});
