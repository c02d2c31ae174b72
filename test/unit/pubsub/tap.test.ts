/**
 * Taps on topics of another project, and what happens when IAM says no — on a fake admin client
 * that answers as Google's does (gRPC PERMISSION_DENIED, code 7): the emulator has no IAM. A user
 * whom the topic's owner granted roles/pubsub.subscriber may attach a subscription to the topic
 * but not read it (no pubsub.topics.get): the tap is still made. When even the create is refused,
 * the error names the roles that would allow it, and who grants each.
 */
import assert from 'node:assert/strict';
import type { PubsubConnection } from '../../../src/pubsub/connection';
import { PubsubError } from '../../../src/pubsub/pubsubErrors';
import { parseResourceName } from '../../../src/pubsub/resourceNames';
import { createTap, createTaps, parseTopicList } from '../../../src/pubsub/tap';

const DENIED = Object.assign(new Error('7 PERMISSION_DENIED: User not authorized to perform this action.'), {
  code: 7,
  details: 'User not authorized to perform this action.',
});
const NOT_FOUND = Object.assign(new Error('5 NOT_FOUND: Resource not found (resource=md-999).'), { code: 5, details: 'Resource not found (resource=md-999).' });

interface FakeAdmin {
  /** What each topic's metadata call does: undefined = answers. */
  topicGet?: (topic: string) => Error | undefined;
  /** What each create does: undefined = creates. */
  create?: (topic: string, subscription: string) => Error | undefined;
}

/** A connection whose client answers the calls a tap makes as the fake says; records them. */
function fakeConnection(fake: FakeAdmin, projectId = 'my-project') {
  const calls: string[] = [];
  const client = {
    topic: (path: string) => ({
      getMetadata: async () => {
        calls.push(`get ${path}`);
        const e = fake.topicGet?.(path);
        if (e) throw e;
        return [{ name: path }];
      },
      createSubscription: async (name: string, options: Record<string, unknown>) => {
        calls.push(`create ${name} on ${path}${options.enableMessageOrdering ? ' (ordered)' : ''}`);
        const e = fake.create?.(path, name);
        if (e) throw e;
        return [{ name }];
      },
    }),
    subscription: (path: string) => ({
      delete: async () => {
        calls.push(`delete ${path}`);
      },
    }),
  };
  const conn = { client, projectId, adminCall: { timeout: 1000 }, close: async () => undefined } as unknown as PubsubConnection;
  return { conn, calls };
}

const CME_TOPIC = parseResourceName('topics', 'projects/cme-smartstream/topics/CERT.SSCL.GCP.MD.RT.CMEG.FIXBIN.v01000.INCR.310');

describe('taps across projects', () => {
  it("taps a topic of another project: the subscription is made in ours, on the topic's full path", async () => {
    const { conn, calls } = fakeConnection({});
    const tap = await createTap(conn, CME_TOPIC);
    assert.equal(tap.subscription.project, 'my-project');
    assert.match(tap.subscription.id, /^seqscope-tap-CERT\.SSCL\.GCP\.MD\.RT\.CMEG\.FIXBIN\.v01000\.INCR\.310-/);
    assert.equal(tap.notes, undefined);
    assert.deepEqual(calls, [`get ${CME_TOPIC.path}`, `create ${tap.subscription.path} on ${CME_TOPIC.path} (ordered)`]);
  });

  it("PERMISSION_DENIED on the topic's metadata does not stop the tap when the subscription can be made; a note says so", async () => {
    const { conn, calls } = fakeConnection({ topicGet: () => DENIED });
    const tap = await createTap(conn, CME_TOPIC);
    assert.equal(calls.length, 2);
    assert.match(calls[1], /^create projects\/my-project\/subscriptions\/seqscope-tap-/);
    assert.deepEqual(tap.notes, [
      `topic ${CME_TOPIC.path} cannot be read (permission denied on its metadata); tapping it anyway: a tap needs only to attach a subscription to it`,
    ]);
  });

  it('when the create is refused too, the error names the roles needed and who grants them', async () => {
    const { conn } = fakeConnection({ topicGet: () => DENIED, create: () => DENIED });
    await assert.rejects(createTap(conn, CME_TOPIC), (e: PubsubError) => {
      assert.equal(e.kind, 'permission-denied');
      assert.equal(e.grpcCode, 7);
      assert.match(
        e.message,
        /^cannot create a tap on projects\/cme-smartstream\/topics\/CERT\.SSCL.*310: permission denied \(User not authorized to perform this action\.\)$/,
      );
      assert.equal(
        e.nextStep,
        `a tap needs roles/pubsub.subscriber on topic ${CME_TOPIC.path} (granted by project cme-smartstream, which owns the topic; it holds pubsub.topics.attachSubscription) and roles/pubsub.editor on project my-project, where the tap subscription is made (pubsub.subscriptions.create)`,
      );
      return true;
    });
  });

  it('in one project, the refused create names that project for both roles', async () => {
    const { conn } = fakeConnection({ create: () => DENIED });
    await assert.rejects(createTap(conn, parseResourceName('topics', 'md-feed', 'my-project')), (e: PubsubError) => {
      assert.match(
        e.nextStep,
        /^a tap needs roles\/pubsub\.subscriber on topic projects\/my-project\/topics\/md-feed \(on project my-project; .*\) and roles\/pubsub\.editor on project my-project/,
      );
      return true;
    });
  });

  it('a topic that does not exist is still "does not exist", whether read first or only at the create', async () => {
    await assert.rejects(
      createTap(fakeConnection({ topicGet: () => NOT_FOUND }).conn, CME_TOPIC),
      (e: PubsubError) => e.kind === 'not-found' && /does not exist/.test(e.message),
    );
    const { conn, calls } = fakeConnection({ topicGet: () => DENIED, create: () => NOT_FOUND });
    await assert.rejects(
      createTap(conn, CME_TOPIC),
      (e: PubsubError) => e.kind === 'not-found' && e.message === `cannot create a tap on ${CME_TOPIC.path}: topic ${CME_TOPIC.path} does not exist`,
    );
    assert.equal(calls.length, 2);
  });

  it('several topics: all tapped, or — when one is refused — none left behind', async () => {
    const topics = parseTopicList(
      ['projects/cme-smartstream/topics/md-310', 'projects/cme-smartstream/topics/md-312, projects/cme-smartstream/topics/md-318'],
      'my-project',
    );
    assert.deepEqual(
      topics.map((t) => t.id),
      ['md-310', 'md-312', 'md-318'],
    );
    const ok = fakeConnection({ topicGet: () => DENIED });
    const taps = await createTaps(ok.conn, topics);
    assert.deepEqual(
      taps.map((t) => t.topic.id),
      ['md-310', 'md-312', 'md-318'],
    );
    assert.ok(taps.every((t) => t.subscription.project === 'my-project' && t.notes?.length === 1));

    const refused = fakeConnection({ create: (topic) => (topic.endsWith('md-318') ? DENIED : undefined) });
    await assert.rejects(createTaps(refused.conn, topics), (e: PubsubError) => e.kind === 'permission-denied' && /md-318/.test(e.message));
    const made = refused.calls.filter((c) => c.startsWith('create')).map((c) => c.split(' ')[1]);
    const deleted = refused.calls.filter((c) => c.startsWith('delete')).map((c) => c.split(' ')[1]);
    assert.deepEqual(deleted.sort(), made.slice(0, 2).sort(), 'the two taps made before the refusal are deleted');
  });

  it('topic lists: repeated and comma-separated, duplicates once; one id in two projects is refused; nothing is an error', async () => {
    assert.deepEqual(
      parseTopicList(['a-topic,,b-topic ', 'a-topic'], 'p-roject').map((t) => t.path),
      ['projects/p-roject/topics/a-topic', 'projects/p-roject/topics/b-topic', 'projects/p-roject/topics/a-topic'],
    );
    const { conn } = fakeConnection({});
    assert.equal((await createTaps(conn, parseTopicList(['a-topic,a-topic'], 'my-project'))).length, 1, 'the same topic is tapped once');
    await assert.rejects(
      createTaps(conn, parseTopicList(['projects/one-project/topics/md-310,projects/two-project/topics/md-310'], undefined)),
      /have the same id/,
    );
    assert.throws(() => parseTopicList([' , '], 'p-roject'), /no topic given/);
  });
});
