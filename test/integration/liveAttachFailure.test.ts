/**
 * An attach that fails once its session is in the tree (the subscription went away, the pull is
 * refused): inside the real extension host, with a Pub/Sub layer whose stream refuses to start,
 * so no emulator is needed. The session leaves the tree, the error reaches the caller, and the
 * recording claimed for it is not left behind empty.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { resolveOptions } from '../../src/core/sequencer/sequencingOptions';
import type { SeqScopeApi } from '../../src/extension/extension';
import { SessionNotices } from '../../src/extension/sessionNotices';
import { LiveSession } from '../../src/extension/liveSession';
import type * as PubsubLayer from '../../src/pubsub';

const EXTENSION_ID = 'seqscope.seqscope';

/** The little of the Pub/Sub layer an attach uses before it receives: a recorder that writes, a stream that will not start, its schema lookups (never asked). */
function refusingLayer(refusal: Error, recorded: string[], content = ''): typeof PubsubLayer {
  class Recorder {
    constructor(readonly path: string) {}
    static async open(path: string): Promise<Recorder> {
      writeFileSync(path, content); // as the real recorder opens it: created (empty)
      recorded.push(path);
      return new Recorder(path);
    }
    async close(): Promise<void> {}
  }
  class RefusingSource {
    async start(): Promise<never> {
      throw refusal;
    }
    async stop(): Promise<void> {}
  }
  class NoSchemas {}
  const schemaFetch = () => async () => {
    throw new Error('no schema is asked for before the stream starts');
  };
  return { CaptureRecorder: Recorder, LiveSource: RefusingSource, LiveSchemas: NoSchemas, schemaFetch } as unknown as typeof PubsubLayer;
}

describe('a live attach that fails', function () {
  this.timeout(30_000);
  let api: SeqScopeApi;
  let dir: string;

  before(async () => {
    api = await vscode.extensions.getExtension<SeqScopeApi>(EXTENSION_ID)!.activate();
    dir = mkdtempSync(join(tmpdir(), 'seqscope-attach-'));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('takes its session out of the tree, passes the error on, and leaves no empty recording', async () => {
    const refusal = Object.assign(new Error('subscription orders-gone not found'), { name: 'PubsubError' });
    const recorded: string[] = [];
    const before = api.manager.all.length;
    const subscription = {
      project: 'seqscope-it',
      kind: 'subscriptions',
      id: 'orders-gone',
      path: 'projects/seqscope-it/subscriptions/orders-gone',
    } as PubsubLayer.ResourceName;
    const attempt = (content?: string) =>
      LiveSession.attach(api.manager, {
        layer: refusingLayer(refusal, recorded, content),
        connection: {} as PubsubLayer.PubsubConnection,
        subscription,
        options: resolveOptions({}),
        recordingDir: dir,
        notices: new SessionNotices(() => Promise.resolve(undefined)),
      });
    // Three tries, as a user retrying would: none leaves its recording.
    for (let i = 0; i < 3; i++) await assert.rejects(attempt(), (e) => e === refusal);
    assert.equal(recorded.length, 3, 'each attempt opened its recording');
    assert.deepEqual(readdirSync(dir), [], 'no empty recording left behind');
    assert.equal(api.manager.all.length, before, 'the sessions left the tree');

    // A recording that holds something is never deleted.
    await assert.rejects(attempt('{"x":1}\n'), (e) => e === refusal);
    assert.deepEqual(readdirSync(dir), [recorded[3].split('/').pop()]);
  });
});
