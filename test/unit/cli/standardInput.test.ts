import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { main } from '../../../src/cli/main';
import { inputName, standardInputProblem } from '../../../src/cli/standardInput';
import { textSink } from '../../support/textSink';

/** Standard input as a terminal gives it: nothing piped in. */
function terminal(): PassThrough & { isTTY: boolean } {
  return Object.assign(new PassThrough(), { isTTY: true });
}

describe('"-" (standard input) for replay and publish', () => {
  it('names standard input, and says when "-" cannot be read', () => {
    assert.equal(inputName('-'), 'standard input');
    assert.equal(inputName('a.jsonl'), 'a.jsonl');
    assert.equal(standardInputProblem(['a.jsonl'], undefined, 'x'), undefined, 'no "-": nothing to check');
    assert.equal(standardInputProblem(['-'], new PassThrough(), 'x'), undefined, 'a pipe');
    assert.match(standardInputProblem(['-', '-'], new PassThrough(), 'x') ?? '', /can be named once/);
    assert.match(
      standardInputProblem(['-'], terminal(), 'seqscope replay -') ?? '',
      /nothing is piped in: pipe one \(gzip -dc feed\.jsonl\.gz \| seqscope replay -\) or name the file/,
    );
    assert.match(standardInputProblem(['-'], undefined, 'x') ?? '', /nothing is piped in/);
  });

  for (const [command, args] of [
    ['replay', ['replay', '-']],
    // No emulator or credentials here: the usage error must come before any connection is tried.
    ['publish', ['publish', '-', '--topic', 'feed']],
  ] as const) {
    it(`${command} - on a terminal is a usage error (exit 2, one line), not a wait that looks like a hang`, async () => {
      const io = { stdout: textSink(), stderr: textSink(), stdin: terminal() };
      const code = await main([...args], io);
      assert.equal(code, 2, io.stderr.text);
      assert.match(
        io.stderr.text,
        new RegExp(
          `^seqscope: "-" reads a capture from standard input, but nothing is piped in: pipe one \\(gzip -dc feed\\.jsonl\\.gz \\| seqscope ${command} -[^)]*\\) or name the file\\n$`,
        ),
      );
      assert.equal(io.stdout.text, '');
    });
  }
});
