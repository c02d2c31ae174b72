/** The recordings list behind SeqScope: Recordings…: which files, their sizes and ages, newest first. */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimRecordingPath } from '../../../../src/core/capture/recordingPath';
import { formatAge, listRecordings } from '../../../../src/core/capture/recordings';

describe('listRecordings', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'seqscope-recordings-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** A file of `bytes` bytes last written `ageS` seconds before 2026-12-01T00:00:00Z. */
  const file = (dir: string, name: string, bytes: number, ageS: number): string => {
    mkdirSync(dir, { recursive: true });
    const path = join(dir, name);
    writeFileSync(path, 'x'.repeat(bytes));
    const t = Date.parse('2026-12-01T00:00:00Z') / 1000 - ageS;
    utimesSync(path, t, t);
    return path;
  };

  it('lists the capture files of each folder, newest first, with their sizes', async () => {
    const a = join(root, 'a');
    const b = join(root, 'b');
    const old = file(a, 'orders-20261130T090000Z.jsonl', 10, 3600);
    const gz = file(b, 'seqscope-tap-feed-1a2b-20261130T093000Z.jsonl.gz', 7, 60);
    const fresh = file(a, 'orders-2026-11-30T10-00-00Z-2.jsonl', 3, 5);
    // Not recordings: captures of the user's own (the setting may name a folder of them), an
    // export's temporary file, other kinds of file, a folder named like a recording.
    file(a, 'feed.jsonl', 1, 0);
    file(a, 'capture-2026.jsonl.gz', 1, 0);
    file(a, 'orders-2026-11-30.jsonl', 1, 0);
    file(a, 'orders-20261130T090000Z.jsonl.bak', 1, 0);
    file(a, '.orders-20261130T090000Z.jsonl.123.0badcafe.part', 1, 0);
    file(a, 'notes.txt', 1, 0);
    mkdirSync(join(a, 'old-20261101T000000Z.jsonl'));
    const list = await listRecordings([a, b, a]);
    assert.deepEqual(
      list.map((r) => [r.path, r.name, r.bytes]),
      [
        [fresh, 'orders-2026-11-30T10-00-00Z-2.jsonl', 3],
        [gz, 'seqscope-tap-feed-1a2b-20261130T093000Z.jsonl.gz', 7],
        [old, 'orders-20261130T090000Z.jsonl', 10],
      ],
    );
    assert.equal(list[1].modifiedMs, Date.parse('2026-12-01T00:00:00Z') - 60_000);
  });

  it('lists what live sessions name their recordings, a second one in the same second too', async () => {
    const now = new Date('2026-12-01T09:30:00.123Z');
    const first = claimRecordingPath(root, 'seqscope-tap-orders-k3j9', now);
    const second = claimRecordingPath(root, 'seqscope-tap-orders-k3j9', now);
    assert.deepEqual((await listRecordings([root])).map((r) => r.path).sort(), [first, second].sort());
  });

  it('breaks ties in age by path, so the list does not shuffle between two looks', async () => {
    const z = file(root, 'z-20261130T090000Z.jsonl', 1, 30);
    const m = file(root, 'm-20261130T090000Z.jsonl', 1, 30);
    assert.deepEqual(
      (await listRecordings([root])).map((r) => r.path),
      [m, z],
    );
  });

  it('has none in a folder that does not exist yet, and names a folder it cannot list', async () => {
    assert.deepEqual(await listRecordings([join(root, 'never-recorded')]), []);
    const notAFolder = file(root, 'setting-points-here.txt', 1, 0);
    await assert.rejects(listRecordings([notAFolder]), (e: Error) => {
      assert.match(e.message, /^cannot list the recordings in .*setting-points-here\.txt: ENOTDIR/);
      return true;
    });
  });

  it('counts a link to a recording as the file it points at, and skips a broken one', async () => {
    const target = file(join(root, 'elsewhere'), 'big.jsonl', 42, 0);
    const dir = join(root, 'recordings');
    mkdirSync(dir);
    symlinkSync(target, join(dir, 'linked-20261130T090000Z.jsonl'));
    symlinkSync(join(root, 'gone.jsonl'), join(dir, 'broken-20261130T090000Z.jsonl'));
    assert.deepEqual(
      (await listRecordings([dir])).map((r) => [r.name, r.bytes]),
      [['linked-20261130T090000Z.jsonl', 42]],
    );
  });
});

describe('formatAge', () => {
  const now = Date.parse('2026-12-01T12:00:00Z');
  it('says how long ago in the largest whole unit', () => {
    assert.equal(formatAge(now - 59_999, now), 'just now');
    assert.equal(formatAge(now - 60_000, now), '1 min ago');
    assert.equal(formatAge(now - 3_599_999, now), '59 min ago');
    assert.equal(formatAge(now - 3_600_000, now), '1 h ago');
    assert.equal(formatAge(now - 86_399_999, now), '23 h ago');
    assert.equal(formatAge(now - 86_400_000, now), '1 day ago');
    assert.equal(formatAge(now - 20 * 86_400_000, now), '20 days ago');
  });
  it('says "just now" for a time ahead of the clock (a file from a machine whose clock runs ahead)', () => {
    assert.equal(formatAge(now + 5_000, now), 'just now');
  });
});
