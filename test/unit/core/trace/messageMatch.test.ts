import assert from 'node:assert/strict';
import { compilePayloadPattern, compileQuery, describeQuery, isQueryActive, parseSearchInput, payloadText } from '../../../../src/core/trace/messageMatch';
import { InputError } from '../../../../src/core/util/inputError';

const b64 = (s: string | Uint8Array) => Buffer.from(s).toString('base64');

describe('messageMatch', () => {
  it('reads a base64 payload as UTF-8 text, and tells binary (an MDP 3.0 packet) and empty apart', () => {
    assert.deepEqual(payloadText(b64('{"sym":"ESZ6","px":4593.25}')), { text: '{"sym":"ESZ6","px":4593.25}' });
    assert.deepEqual(payloadText(b64('Grüße — 東京\n\tend')), { text: 'Grüße — 東京\n\tend' }, 'UTF-8 beyond ASCII, tab and line feed are text');
    // An MDP 3.0 packet header: MsgSeqNum 7100 little-endian (NUL bytes), then SendingTime.
    const packet = new Uint8Array([0xbc, 0x1b, 0, 0, 0x40, 0x8c, 0x3f, 0x1e, 0x4f, 0x7f, 0xe6, 0x18]);
    assert.equal(payloadText(b64(packet)), 'binary');
    assert.equal(payloadText(b64(new Uint8Array([0xff, 0xfe, 0x41]))), 'binary', 'not UTF-8');
    assert.equal(payloadText(undefined), 'empty');
    assert.equal(payloadText(''), 'empty');
    assert.deepEqual(payloadText('not base64!'), { text: 'not base64!' }, 'a hand-made capture with the text itself');
  });

  it('finds plain text, ignoring case or not', () => {
    assert.equal(compilePayloadPattern({ source: 'esz6', regex: false, ignoreCase: true })('{"sym":"ESZ6"}'), true);
    assert.equal(compilePayloadPattern({ source: 'esz6', regex: false, ignoreCase: false })('{"sym":"ESZ6"}'), false);
    assert.equal(compilePayloadPattern({ source: '.*', regex: false, ignoreCase: false })('abc'), false, 'plain text is not a pattern');
  });

  it('matches RE2 regular expressions anywhere in the payload', () => {
    const t = compilePayloadPattern({ source: '"px":45\\d\\d\\.25', regex: true, ignoreCase: false });
    assert.equal(t('{"px":4593.25}'), true);
    assert.equal(t('{"px":4593.5}'), false);
    assert.equal(compilePayloadPattern({ source: 'esz\\d', regex: true, ignoreCase: true })('ESZ6'), true);
    assert.equal(compilePayloadPattern({ source: '(?i)esz\\d', regex: true, ignoreCase: false })('ESZ6'), true, 'inline flags');
  });

  it('does not hang on a pattern that makes a backtracking engine run for minutes', () => {
    // JavaScript's RegExp takes ~1 minute on 28 a's and doubles with each more; RE2 is linear.
    const t = compilePayloadPattern({ source: '(a+)+$', regex: true, ignoreCase: false });
    const payload = 'a'.repeat(100_000) + 'b';
    for (let i = 0; i < 20; i++) assert.equal(t(payload), false);
    assert.equal(compilePayloadPattern({ source: '(x+x+)+y', regex: true, ignoreCase: false })('x'.repeat(50_000)), false);
  });

  it('names a bad regular expression, what is wrong, and where to fix it', () => {
    const cases: [string, RegExp][] = [
      ['(a', /^the regular expression \/\(a\/ is not valid: missing closing \): `\(a`$/],
      ['[z-a]', /^the regular expression \/\[z-a\]\/ is not valid: invalid character class range: `z-a`$/],
      ['(a)\\1', /is not valid: invalid escape sequence: `\\1` \(RE2 syntax: no backreferences or lookaround\)$/],
      ['a(?=b)', /is not valid: .*\(RE2 syntax: no backreferences or lookaround\)$/],
    ];
    for (const [source, message] of cases) {
      assert.throws(
        () => compilePayloadPattern({ source, regex: true, ignoreCase: false }, { flag: '--grep' }),
        (e: unknown) => e instanceof InputError && message.test(e.message) && e.fix.flag === '--grep',
        source,
      );
    }
  });

  it('compiles a query: ids (any of) and a payload pattern (all parts must match); binary payloads are passed over', () => {
    assert.equal(isQueryActive({}), false);
    assert.equal(isQueryActive({ messageIds: ['1'] }), true);
    const q = compileQuery({ messageIds: ['1', '2'], payload: { source: 'buy', regex: false, ignoreCase: false } });
    assert.equal(q('1', b64('side=buy')), 'match');
    assert.equal(q('2', b64('side=sell')), 'no');
    assert.equal(q('3', b64('side=buy')), 'no');
    assert.equal(q('1', b64(new Uint8Array([0, 1, 2]))), 'binary');
    assert.equal(q('1', undefined), 'no');
    const ids = compileQuery({ messageIds: ['9'] });
    assert.equal(ids('9', b64(new Uint8Array([0, 1, 2]))), 'match', 'an id finds a binary payload');
    assert.equal(describeQuery({ messageIds: ['1', '2'], payload: { source: 'a+', regex: true, ignoreCase: true } }), 'messageId 1, 2 · payload /a+/i');
  });

  it('reads the search box: /pattern/i is a regular expression, anything else an id or text', () => {
    assert.deepEqual(parseSearchInput(' 2070443600000002 '), {
      messageId: '2070443600000002',
      payload: { source: '2070443600000002', regex: false, ignoreCase: true },
    });
    assert.deepEqual(parseSearchInput('/"px":45\\d+/'), { payload: { source: '"px":45\\d+', regex: true, ignoreCase: false } });
    assert.deepEqual(parseSearchInput('/esz/i'), { payload: { source: 'esz', regex: true, ignoreCase: true } });
    assert.deepEqual(parseSearchInput('//'), { messageId: '//', payload: { source: '//', regex: false, ignoreCase: true } });
    assert.throws(() => parseSearchInput('  '), /type a messageId/);
    assert.throws(() => parseSearchInput('/a/g'), /the one flag is i \(ignore case\), not "g"/);
    assert.throws(() => parseSearchInput('/(a/'), /the regular expression \/\(a\/ is not valid: missing closing \)/);
  });
});
