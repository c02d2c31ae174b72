import assert from 'node:assert/strict';
import {
  DEFAULT_OPTIONS,
  isSequenced,
  sequencingLabel,
  unseenFindings,
  describeOptions,
  formatKeySpec,
  formatSeqSpec,
  OptionText,
  parseKeySpec,
  parsePresets,
  parseSeqSpec,
  parseTimeSpec,
  PRESETS,
  resolveOptions,
  sameOptions,
} from '../../../../src/core/sequencer/sequencingOptions';
import { InputError } from '../../../../src/core/util/inputError';

/** Asserts that resolving `text` throws an InputError whose message matches `message` and that names a setting and a flag. */
function rejects(text: OptionText, message: RegExp): void {
  assert.throws(
    () => resolveOptions(text),
    (e: unknown) => {
      assert.ok(e instanceof InputError, `InputError for ${JSON.stringify(text)}, got ${String(e)}`);
      assert.match(e.message, message);
      assert.match(e.fix.setting ?? '', /^seqscope\.[a-zA-Z]+$/);
      assert.match(e.fix.flag ?? '', /^--[a-z-]+$/);
      return true;
    },
  );
}

describe('sequencingOptions', () => {
  it("judges ordering keys by publish order by default, and keeps arrival order for keys of one's own", () => {
    assert.deepEqual(resolveOptions({ key: 'attribute:Channel' }).seq, { kind: 'none' });
    assert.deepEqual(resolveOptions({ key: 'json:header.k' }).seq, { kind: 'none' });
    assert.deepEqual(resolveOptions({ key: 'none' }).seq, { kind: 'none' });
    assert.deepEqual(resolveOptions({ key: 'none', seq: 'publishTime' }).seq, { kind: 'publishTime' }, 'asked for');
    assert.deepEqual(resolveOptions({ key: 'orderingKey', seq: 'none' }).seq, { kind: 'none' }, 'arrival order only, asked for');
    assert.deepEqual(resolveOptions({ preset: 'cme' }).seq, { kind: 'attribute', name: 'MsgSeqNum' });
    assert.equal(isSequenced(resolveOptions({})), false, 'not numbered');
    assert.equal(describeOptions(resolveOptions({ seq: 'none' })), 'key orderingKey, seq none, gap timeout 10s, capacity 10000');
    assert.equal(sequencingLabel(resolveOptions({})), 'publish order per ordering key');
    assert.match(unseenFindings(resolveOptions({}))!, /^publish order: gaps cannot be seen/);
  });

  it('resolves nothing to the defaults', () => {
    assert.deepEqual(resolveOptions({}), {
      key: { kind: 'orderingKey' },
      seq: { kind: 'publishTime' },
      seqBits: 64,
      gapTimeoutMs: 10_000,
      capacity: 10_000,
    });
    assert.deepEqual(resolveOptions({}), DEFAULT_OPTIONS);
    assert.deepEqual(resolveOptions({ preset: '' }), DEFAULT_OPTIONS);
    assert.deepEqual(resolveOptions({ preset: 'none' }), DEFAULT_OPTIONS);
  });

  it('applies the cme preset', () => {
    assert.deepEqual(resolveOptions({ preset: 'cme' }), {
      key: { kind: 'attribute', name: 'Channel' },
      seq: { kind: 'attribute', name: 'MsgSeqNum' },
      seqBits: 32,
      gapTimeoutMs: 10_000,
      capacity: 10_000,
      sendingTimeAttribute: 'SendingTime',
      payload: 'mdp3',
      resetTo: 1,
    });
  });

  it('lets flags override the preset', () => {
    const o = resolveOptions({ preset: 'cme', key: 'orderingKey', seq: 'attribute:Seq', seqBits: '16', gapTimeout: '500ms', capacity: '100' });
    assert.deepEqual(o, {
      key: { kind: 'orderingKey' },
      seq: { kind: 'attribute', name: 'Seq' },
      seqBits: 16,
      gapTimeoutMs: 500,
      capacity: 100,
      sendingTimeAttribute: 'SendingTime',
      payload: 'mdp3',
      resetTo: 1,
    });
    assert.equal(resolveOptions({ preset: 'cme', seq: 'none' }).seq.kind, 'none');
    assert.equal(resolveOptions({ preset: 'cme', seqBits: 64 }).seqBits, 64);
  });

  it('does not change the defaults or the presets', () => {
    const defaults = JSON.stringify(DEFAULT_OPTIONS);
    const presets = JSON.stringify(PRESETS);
    resolveOptions({ preset: 'cme', key: 'none', capacity: 5, gapTimeout: 1 });
    assert.equal(JSON.stringify(DEFAULT_OPTIONS), defaults);
    assert.equal(JSON.stringify(PRESETS), presets);
  });

  it('takes numbers as well as text for numeric options', () => {
    const o = resolveOptions({ seqBits: 16, gapTimeout: 0, capacity: 7 });
    assert.equal(o.seqBits, 16);
    assert.equal(o.gapTimeoutMs, 0);
    assert.equal(o.capacity, 7);
    assert.equal(resolveOptions({ gapTimeout: '2m' }).gapTimeoutMs, 120_000);
    assert.equal(resolveOptions({ gapTimeout: '250' }).gapTimeoutMs, 250);
    assert.equal(resolveOptions({ gapTimeout: '1.5s' }).gapTimeoutMs, 1500);
  });

  it('rejects an unknown preset, naming it and the known ones', () => {
    rejects({ preset: 'nyse' }, /^preset "nyse" is unknown: use cme, cme-json$/);
    rejects({ preset: 'CME' }, /^preset "CME" is unknown/);
    // Inherited object properties are not presets.
    rejects({ preset: 'constructor' }, /^preset "constructor" is unknown/);
    rejects({ preset: 'toString' }, /^preset "toString" is unknown/);
    rejects({ preset: '__proto__' }, /^preset "__proto__" is unknown/);
  });

  it('rejects a bad key', () => {
    for (const key of ['', 'foo', 'attribute:', 'attribute', 'orderingkey', 'Attribute:x']) {
      rejects({ key }, new RegExp(`^key "${key}" is not valid: use orderingKey, attribute:<name>, json:<path> \\(a payload field`));
    }
  });

  it('rejects a bad seq', () => {
    for (const seq of ['', 'orderingKey', 'attribute:', 'MsgSeqNum']) {
      rejects({ seq }, new RegExp(`^seq "${seq}" is not valid: use attribute:<name>`));
    }
  });

  it('rejects bad seq-bits', () => {
    for (const seqBits of ['8', '0', '', 'abc', '15.5', 128, -16]) {
      rejects({ seqBits }, new RegExp(`^seq-bits "${seqBits}" is not valid: use 16, 32 or 64$`));
    }
  });

  it('rejects a bad gap-timeout', () => {
    for (const gapTimeout of ['soon', '', '-1s', '10x', '1e3']) {
      rejects({ gapTimeout }, new RegExp(`^gap-timeout "${gapTimeout}" is not valid`));
    }
    rejects({ gapTimeout: -1 }, /^gap-timeout -1 is not valid: use a duration of 0 or more$/);
    rejects({ gapTimeout: NaN }, /^gap-timeout NaN is not valid/);
  });

  it('rejects a bad capacity', () => {
    for (const capacity of ['0', '-5', '1.5', 'abc', '', 0, -1, 2.5, NaN]) {
      rejects({ capacity }, new RegExp(`^capacity "${capacity}" is not valid: use a whole number of 1 or more$`));
    }
  });

  it('rejects a capacity too large for the number width', () => {
    rejects({ preset: 'cme', seqBits: 16, capacity: '32768' }, /^capacity 32768 is too large for 16-bit numbers: use less than 32768$/);
    rejects({ preset: 'cme', seqBits: 16, capacity: 100_000 }, /^capacity 100000 is too large for 16-bit/);
    rejects({ seq: 'attribute:N', seqBits: 32, capacity: 2 ** 31 }, /^capacity 2147483648 is too large for 32-bit numbers/);
    assert.equal(resolveOptions({ preset: 'cme', seqBits: 16, capacity: '32767' }).capacity, 32_767);
    assert.equal(resolveOptions({ preset: 'cme', capacity: 100_000 }).capacity, 100_000, 'the preset is 32-bit');
    assert.equal(resolveOptions({ seq: 'attribute:N', seqBits: 32, capacity: 2 ** 31 - 1 }).capacity, 2 ** 31 - 1);
    // 64-bit numbers do not wrap; without a sequence the width does not matter.
    assert.equal(resolveOptions({ seq: 'attribute:N', capacity: 10_000_000 }).capacity, 10_000_000);
    assert.equal(resolveOptions({ seqBits: 16, capacity: 100_000 }).capacity, 100_000);
  });

  it('parses and formats key and seq specs', () => {
    assert.deepEqual(parseKeySpec('orderingKey'), { kind: 'orderingKey' });
    assert.deepEqual(parseKeySpec('none'), { kind: 'none' });
    assert.deepEqual(parseKeySpec('attribute:Channel'), { kind: 'attribute', name: 'Channel' });
    assert.deepEqual(parseKeySpec('attribute:a:b'), { kind: 'attribute', name: 'a:b' });
    assert.deepEqual(parseSeqSpec('none'), { kind: 'none' });
    assert.deepEqual(parseSeqSpec('attribute:MsgSeqNum'), { kind: 'attribute', name: 'MsgSeqNum' });
    for (const t of ['orderingKey', 'none', 'attribute:Channel']) assert.equal(formatKeySpec(parseKeySpec(t)), t);
    for (const t of ['none', 'attribute:MsgSeqNum']) assert.equal(formatSeqSpec(parseSeqSpec(t)), t);
  });

  it('tells option sets that sequence alike, however written', () => {
    const cme = resolveOptions({ preset: 'cme' });
    assert.ok(sameOptions(cme, resolveOptions({ key: 'attribute:Channel', seq: 'attribute:MsgSeqNum', seqBits: '32', gapTimeout: '10000ms', preset: 'cme' })));
    assert.ok(sameOptions(DEFAULT_OPTIONS, resolveOptions({})));
    assert.ok(!sameOptions(cme, resolveOptions({ preset: 'cme', gapTimeout: '9s' })), 'gap timeout');
    assert.ok(!sameOptions(cme, resolveOptions({ preset: 'cme', capacity: '100' })), 'capacity');
    assert.ok(!sameOptions(cme, resolveOptions({ preset: 'cme', seqBits: '16' })), 'width');
    assert.ok(!sameOptions(cme, { ...cme, sendingTimeAttribute: undefined }), 'latency attribute');
    assert.ok(!sameOptions(DEFAULT_OPTIONS, resolveOptions({ key: 'none' })), 'key');
  });

  it('describes options in one line', () => {
    assert.equal(
      describeOptions(resolveOptions({ preset: 'cme' })),
      'key attribute:Channel, seq attribute:MsgSeqNum (32-bit), gap timeout 10s, capacity 10000, reset to 1',
    );
    assert.equal(describeOptions(DEFAULT_OPTIONS), 'key orderingKey, seq publishTime (publish order), gap timeout 10s, capacity 10000');
  });

  it('takes mdp3 as a seq and a time source: 32-bit unless the width is given, payloads decoded', () => {
    const o = resolveOptions({ preset: 'cme', seq: 'mdp3', time: 'mdp3' });
    assert.deepEqual([o.seq, o.seqBits, o.sendingTimeAttribute, o.sendingTimeMdp3, o.payload], [{ kind: 'mdp3' }, 32, undefined, true, 'mdp3']);
    assert.equal(resolveOptions({ seq: 'mdp3' }).seqBits, 32, 'without a preset too');
    assert.equal(resolveOptions({ seq: 'mdp3', seqBits: 64 }).seqBits, 64);
    assert.equal(resolveOptions({ seq: 'attribute:N' }).payload, undefined, 'nothing decodes unless asked');
    assert.equal(resolveOptions({ preset: 'cme' }).payload, 'mdp3', 'the cme preset shows decoded packets');
    assert.equal(resolveOptions({ preset: 'cme', time: 'none' }).sendingTimeAttribute, undefined);
    assert.equal(resolveOptions({ time: 'attribute:Sent' }).sendingTimeAttribute, 'Sent');
    assert.equal(formatSeqSpec(parseSeqSpec('mdp3')), 'mdp3');
    assert.equal(
      describeOptions(resolveOptions({ preset: 'cme', seq: 'mdp3', time: 'mdp3' })),
      'key attribute:Channel, seq mdp3 (32-bit), time mdp3, gap timeout 10s, capacity 10000, reset to 1',
    );
    assert.throws(() => resolveOptions({ time: 'soon' }), /^InputError: time "soon" is not valid: use attribute:<name>/);
    assert.throws(() => resolveOptions({ seq: 'mdp4' }), /use attribute:<name> \(e\.g\. attribute:MsgSeqNum\), mdp3/);
    assert.ok(!sameOptions(resolveOptions({ preset: 'cme' }), resolveOptions({ preset: 'cme', time: 'mdp3' })), 'latency source');
  });

  describe('payload fields (json:<path>)', () => {
    it('parses json: specs for key, seq and time, and describes them', () => {
      assert.deepEqual(parseKeySpec('json:payload[0].instrument.symbol'), { kind: 'json', path: ['payload', 0, 'instrument', 'symbol'] });
      assert.deepEqual(parseSeqSpec('json:header.seq'), { kind: 'json', path: ['header', 'seq'] });
      assert.deepEqual(parseTimeSpec('json:header.sentTime'), { kind: 'json', path: ['header', 'sentTime'] });
      const o = resolveOptions({ key: 'json:payload[0].instrument.symbol', seq: 'json:header.seq', time: 'json:header.sentTime' });
      assert.deepEqual(o.sendingTimeJson, ['header', 'sentTime']);
      assert.equal(
        describeOptions(o),
        'key json:payload[0].instrument.symbol, seq json:header.seq (64-bit), time json:header.sentTime, gap timeout 10s, capacity 10000',
      );
      assert.equal(formatKeySpec(o.key), 'json:payload[0].instrument.symbol');
      assert.equal(resolveOptions({ preset: 'cme-json', time: 'none' }).sendingTimeJson, undefined, "--time none drops a preset's json time");
    });

    it('names the option when the path is bad', () => {
      rejects({ key: 'json:' }, /^key "json:": the path is empty/);
      rejects({ seq: 'json:header..seq' }, /^seq "json:header..seq": path "header..seq" has an empty field name$/);
      rejects({ time: 'json:a[x]' }, /^time "json:a\[x\]": path "a\[x\]" is not valid at "\[x\]"/);
    });

    it('ships cme-json: one sequence per topic, seq and time from the header', () => {
      assert.equal(
        describeOptions(resolveOptions({ preset: 'cme-json' })),
        'key none, seq json:header.sequenceNumber (64-bit), time json:header.sentTime, gap timeout 10s, capacity 10000',
      );
    });
  });

  describe('user presets', () => {
    const user = parsePresets(
      { feed: { key: 'attribute:Desk', seq: 'json:header.seq', seqBits: 32, time: 'json:header.ts', gapTimeout: '2s', capacity: 500 } },
      'settings',
    );

    it('resolve by name beside the built-in ones; flags given next to one override it', () => {
      const o = resolveOptions({ preset: 'feed' }, user);
      assert.equal(describeOptions(o), 'key attribute:Desk, seq json:header.seq (32-bit), time json:header.ts, gap timeout 2s, capacity 500');
      assert.equal(
        describeOptions(resolveOptions({ preset: 'feed', seqBits: '64', key: undefined }, user)),
        'key attribute:Desk, seq json:header.seq (64-bit), time json:header.ts, gap timeout 2s, capacity 500',
      );
      assert.equal(resolveOptions({ preset: 'cme' }, user).seqBits, 32, 'built-in presets still resolve');
      assert.throws(() => resolveOptions({ preset: 'nyse' }, user), /^InputError: preset "nyse" is unknown: use cme, cme-json, feed$/);
    });

    it('a bad preset names the source, the preset and the field', () => {
      const bad = (v: unknown, message: RegExp) =>
        assert.throws(
          () => parsePresets(v, 'presets.json'),
          (e: unknown) => e instanceof Error && e.name === 'InputError' && message.test(e.message),
        );
      bad([], /^presets.json: presets must be a JSON object of name → options$/);
      bad({ a: 'x' }, /^presets.json: preset "a" must be an object/);
      bad(
        { a: { sequence: 'x' } },
        /^presets.json: preset "a": field "sequence" is unknown: use key, seq, seqBits, time, gapTimeout, capacity, resetTo, resets, schema, schemas$/,
      );
      bad({ a: { seq: 'MsgSeqNum' } }, /^presets.json: preset "a": field "seq": seq "MsgSeqNum" is not valid/);
      bad({ a: { key: 7 } }, /^presets.json: preset "a": field "key" must be a string$/);
      bad({ a: { seqBits: 12 } }, /^presets.json: preset "a": field "seqBits": seq-bits "12" is not valid/);
      bad({ a: { seq: 'attribute:n', seqBits: 16, capacity: 40000 } }, /^presets.json: preset "a": capacity 40000 is too large for 16-bit numbers/);
      bad({ cme: {} }, /^presets.json: preset "cme": the name is built in; choose another$/);
      bad({ ' a': {} }, /^presets.json: preset " a": a name must not be empty or begin or end with a space$/);
    });

    it('may name schema files: they ride on the options, not yet read, for the CLI and the extension to read', () => {
      const named = parsePresets(
        { trades: { key: 'json:channel', seq: 'json:seq', schema: 'trades.avsc', schemas: { quotes: 'quote.proto:md.Quote' } } },
        'settings',
      );
      assert.deepEqual(resolveOptions({ preset: 'trades' }, named).presetSchemas, { quotes: 'quote.proto:md.Quote', '*': 'trades.avsc' });
      assert.equal(resolveOptions({ preset: 'feed' }, user).presetSchemas, undefined);
      const bad = (v: unknown, message: RegExp) =>
        assert.throws(
          () => parsePresets({ a: v }, 'presets.json'),
          (e: unknown) => e instanceof Error && e.name === 'InputError' && message.test(e.message),
        );
      bad({ schema: 'trades.xml' }, /^presets.json: preset "a": field "schema": "schema": "trades.xml" is not a schema file/);
      bad({ schema: 7 }, /^presets.json: preset "a": field "schema" must be a string$/);
      bad({ schemas: ['x.avsc'] }, /^presets.json: preset "a": field "schemas": "schemas" must map a schema name or topic to a file/);
      bad({ schemas: { '*': 'a.avsc' }, schema: 'b.avsc' }, /^presets.json: preset "a": "schema" and "schemas"\["\*"\] both name the schema/);
    });

    it("a bad preset is fixed where the caller says: the setting or the flag, not the field's own setting", () => {
      const fixOf = (f: () => unknown) => {
        try {
          f();
        } catch (e) {
          return (e as InputError).fix;
        }
        assert.fail('did not throw');
      };
      assert.deepEqual(
        fixOf(() => parsePresets({ a: { key: 'Desk' } }, 'seqscope.presets', { setting: 'seqscope.presets' })),
        { setting: 'seqscope.presets' },
      );
      assert.deepEqual(
        fixOf(() => parsePresets([], 'f.json', { flag: '--preset-file' })),
        { flag: '--preset-file' },
      );
    });
  });
});
