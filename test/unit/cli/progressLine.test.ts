import assert from 'node:assert/strict';
import { join } from 'node:path';
import { main } from '../../../src/cli/main';
import { ProgressLine } from '../../../src/cli/progressLine';
import { textSink } from '../../support/textSink';

const SAMPLE = join(__dirname, '..', '..', '..', 'media', 'samples', 'cme-sample.jsonl');
const ERASE = '\r\x1b[K';

describe('CLI progress line', () => {
  it('redraws at most every 250 ms, in place, and erases itself', () => {
    const out = textSink(true);
    let t = 1000;
    const p = new ProgressLine(out, 'feed.jsonl', () => t);
    p.clear();
    assert.equal(out.text, '', 'nothing shown, nothing to erase');
    p.update(100 << 20, 473 << 20);
    t += 100;
    p.update(200 << 20, 473 << 20);
    t += 200;
    p.update(473 << 20, 473 << 20);
    p.clear();
    assert.equal(out.text, `${ERASE}seqscope: reading feed.jsonl 21% (100 of 473 MiB)${ERASE}seqscope: reading feed.jsonl 99% (473 of 473 MiB)${ERASE}`);
    const stream = textSink(true);
    new ProgressLine(stream, 'standard input', () => 0).update(3 << 19, 0);
    assert.equal(stream.text, `${ERASE}seqscope: reading standard input 1.5 MiB`, 'no total: no percentage');
  });

  it('show() draws any state the same way; note() puts a message on a line of its own and the state comes back at once', () => {
    const out = textSink(true);
    let t = 0;
    const p = new ProgressLine(out, 'x', () => t);
    p.note('seqscope: before anything is shown\n');
    p.show('recording 5 messages');
    t += 10;
    p.note('seqscope: disconnected\n');
    t += 10;
    p.show('recording 6 messages'); // within 250 ms of the last draw, but the line was erased
    t += 10;
    p.show('recording 7 messages'); // throttled again
    p.clear();
    assert.equal(
      out.text,
      `seqscope: before anything is shown\n${ERASE}seqscope: recording 5 messages${ERASE}seqscope: disconnected\n${ERASE}seqscope: recording 6 messages${ERASE}`,
    );
  });

  it('replay shows it on a terminal only, erased before the summary, and not with --no-progress', async () => {
    const run = async (isTTY: boolean, ...extra: string[]) => {
      const io = { stdout: textSink(false), stderr: textSink(isTTY) };
      const code = await main(['replay', SAMPLE, '--preset', 'cme', ...extra], io);
      assert.equal(code, 0, io.stderr.text);
      assert.match(io.stdout.text, /^SeqScope replay of /);
      return io.stderr.text;
    };
    const tty = await run(true);
    assert.ok(tty.startsWith(`${ERASE}seqscope: reading `), JSON.stringify(tty));
    assert.match(tty, /cme-sample\.jsonl \d+% \([\d.]+ of [\d.]+ MiB\)/);
    assert.ok(tty.endsWith(ERASE), JSON.stringify(tty));
    assert.equal(await run(true, '--no-progress'), '');
    assert.equal(await run(false), '', 'a log or a pipe gets no progress');
  });
});
