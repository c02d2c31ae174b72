/** An archive loads into a session whose records read back from a JSON Lines copy (see src/timeline/node/archiveCopy.ts). */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { loadSession } from '../../../../src/timeline/node/loadSession';
import { SessionFiles } from '../../../../src/timeline/node/sessionFiles';
import { packSession, unpackSession } from '../../../../src/timeline/sessionTransfer';

const FIXTURES = join(__dirname, '..', '..', '..', 'fixtures', 'archives');
const OPTIONS = resolveOptions({ seq: 'attribute:n', gapTimeout: '5s' });

describe('Archive copies', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'seqscope-archive-copy-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('an Avro archive: every arrival a line of the copy, read back as the record the reader made, the archive’s record number kept', async () => {
    const copy = join(dir, 'records.jsonl');
    const { session, notes } = await loadSession([join(FIXTURES, 'gcs-metadata.avro')], OPTIONS, { copyTo: copy });
    assert.deepEqual(notes, []);
    assert.equal(session.copy, copy);
    assert.equal(session.summary.received, 9);
    assert.equal(session.arrivalCount, 9);
    assert.equal(readFileSync(copy, 'utf8').split('\n').length, 10, 'nine lines and the last newline');
    const files = new SessionFiles(session);
    try {
      assert.deepEqual(await files.read(0), {
        message: {
          messageId: '1001',
          publishTime: '2026-12-01T09:30:00.000123Z',
          orderingKey: 'acct-1',
          attributes: { n: '1', ordering_key: 'acct-1' },
          data: Buffer.from('{"key":"acct-1","n":1}').toString('base64'),
        },
      });
      assert.equal(session.log.line.get(8), 9, 'the record’s number in the archive');
      assert.equal(session.log.file.get(8), 0);
      // The attribute filter reads the copy in arrival order.
      const mask = await files.attributeMask('ordering_key', 'acct-2');
      assert.deepEqual(
        [...mask].reduce((a, b) => a + b, 0),
        3,
      );
    } finally {
      await files.close();
    }
    // The copy's path crosses from the worker with the columns.
    const moved = unpackSession(packSession(session).packed);
    assert.equal(moved.copy, copy);
  });

  it('a corrupt block: its invalid record has a line saying why, as the CLI reports it; the rest read', async () => {
    const copy = join(dir, 'records.jsonl');
    const { session } = await loadSession([join(FIXTURES, 'bad', 'corrupt-block.avro')], OPTIONS, { copyTo: copy });
    assert.equal(session.summary.received, 5);
    assert.equal(session.summary.invalid, 1);
    const files = new SessionFiles(session);
    try {
      const texts = await Promise.all(Array.from({ length: session.arrivalCount }, (_, a) => files.readText(a)));
      const bad = texts.map((t) => JSON.parse(t as string) as { invalid?: string; file?: string }).find((v) => v.invalid !== undefined);
      assert.ok(bad);
      assert.match(bad.invalid as string, /^the Avro block at byte 648 is damaged \(its sync marker does not match the header's\)/);
      assert.equal(bad.file, 'corrupt-block.avro');
    } finally {
      await files.close();
    }
  });

  it('a text archive, read as asked: the payloads as messages, what is unknown said once', async () => {
    const copy = join(dir, 'records.jsonl');
    const { session, notes } = await loadSession([join(FIXTURES, 'gcs-text.txt')], resolveOptions({ seq: 'none' }), { copyTo: copy, inputFormat: 'text' });
    assert.equal(session.summary.received, 4);
    assert.equal(notes.length, 1);
    assert.match(notes[0], /gcs-text\.txt is a Cloud Storage subscription text archive/);
    const files = new SessionFiles(session);
    try {
      const first = await files.read(0);
      assert.equal(first?.message.messageId, 'gcs-text.txt#1');
      assert.equal(Buffer.from(first?.message.data ?? '', 'base64').toString(), readFileSync(join(FIXTURES, 'gcs-text.txt'), 'utf8').split('\n')[0]);
    } finally {
      await files.close();
    }
  });

  it('a wrong schema fails the load with the CLI’s error; the copy made so far is left for the caller to delete', async () => {
    const copy = join(dir, 'records.jsonl');
    await assert.rejects(
      loadSession([join(FIXTURES, 'bad', 'wrong-schema.avro')], OPTIONS, { copyTo: copy }),
      /wrong-schema\.avro is an Avro file but cannot be read as a Pub\/Sub archive: its Avro schema's field "message_id" is "long", expected string/,
    );
    assert.ok(existsSync(copy));
  });
});
