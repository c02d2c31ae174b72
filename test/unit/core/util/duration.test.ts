import assert from 'node:assert/strict';
import fc from 'fast-check';
import { InputError } from '../../../../src/core/util/inputError';
import { formatDuration, formatDurationExact, parseDuration, parseWhen } from '../../../../src/core/util/duration';

describe('parseDuration', () => {
  const cases: [string, number][] = [
    ['500ms', 500],
    ['10s', 10_000],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['250', 250],
    ['0', 0],
    ['0s', 0],
    ['1.5s', 1500],
    ['0.5ms', 0.5],
    ['0.25m', 15_000],
    ['1.5h', 5_400_000],
    [' 10s ', 10_000],
    ['10 s', 10_000],
    ['007s', 7000],
  ];
  for (const [text, ms] of cases) {
    it(`reads ${JSON.stringify(text)} as ${ms}ms`, () => {
      assert.equal(parseDuration(text), ms);
    });
  }

  it('gives exact milliseconds for decimals that floating point multiplies badly', () => {
    // 1.1 * 1000 is 1100.0000000000002 and 2.3 * 60000 is 137999.99999999997 in floating point.
    assert.equal(parseDuration('1.1s'), 1100);
    assert.equal(parseDuration('2.3m'), 138_000);
    assert.equal(parseDuration('0.7s'), 700);
    assert.equal(parseDuration('4.35s'), 4350);
    assert.equal(parseDuration('1.005s'), 1005);
  });

  it('rejects what is not a duration with an InputError quoting it', () => {
    for (const text of [
      '',
      ' ',
      'abc',
      '10x',
      '-1s',
      '-5',
      '1.s',
      '.5s',
      '10sec',
      'ms',
      's10',
      '1e3',
      '1,5s',
      '10ms5',
      '1 000',
      'Infinity',
      'NaN',
      '9'.repeat(400),
    ]) {
      assert.throws(
        () => parseDuration(text),
        (e: unknown) => {
          assert.ok(e instanceof InputError, `InputError for ${JSON.stringify(text)}`);
          assert.ok(e.message.startsWith(`"${text}" is not a duration`), e.message);
          return true;
        },
      );
    }
  });
});

describe('formatDuration', () => {
  const cases: [number, string][] = [
    [0, '0ms'],
    [12.34, '12.3ms'],
    [999.94, '999.9ms'],
    [999.96, '1s'],
    [1000, '1s'],
    [1500, '1.5s'],
    [59_940, '59.9s'],
    [59_960, '1m'],
    [60_000, '1m'],
    [90_000, '1.5m'],
    [7_200_000, '120m'],
    [-250, '-250ms'],
    [-2500, '-2.5s'],
    [Infinity, '—'],
    [-Infinity, '—'],
    [NaN, '—'],
  ];
  for (const [ms, text] of cases) {
    it(`shows ${ms} as ${text}`, () => {
      assert.equal(formatDuration(ms), text);
    });
  }

  it('reads back what it writes, to the shown precision', () => {
    for (const ms of [0, 5, 120, 1500, 42_000, 600_000]) assert.equal(parseDuration(formatDuration(ms)), ms);
  });
});

describe('formatDurationExact (option descriptions)', () => {
  it('uses the largest unit that loses nothing', () => {
    const cases: [number, string][] = [
      [0, '0ms'],
      [500, '500ms'],
      [1500, '1500ms'],
      [10_000, '10s'],
      [90_000, '90s'],
      [120_000, '2m'],
      [3_600_000, '1h'],
      [5_400_000, '90m'],
      [12.5, '12.5ms'],
    ];
    for (const [ms, text] of cases) assert.equal(formatDurationExact(ms), text, String(ms));
  });

  it('reads back exactly what it writes', () => {
    // Durations as parseDuration makes them: whole microseconds.
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 40 }), (us) => {
        const ms = us / 1000;
        assert.equal(parseDuration(formatDurationExact(ms)), ms);
      }),
    );
  });
});

describe('parseWhen (replay from time)', () => {
  const now = Date.parse('2026-11-30T09:30:00Z');
  it('reads durations ago and absolute times, and refuses the rest', () => {
    assert.equal(parseWhen('5m', now)?.toISOString(), '2026-11-30T09:25:00.000Z');
    assert.equal(parseWhen(' 30s ', now)?.toISOString(), '2026-11-30T09:29:30.000Z');
    assert.equal(parseWhen('1.5h', now)?.toISOString(), '2026-11-30T08:00:00.000Z');
    assert.equal(parseWhen('2026-11-30T09:00:00Z', now)?.toISOString(), '2026-11-30T09:00:00.000Z');
    for (const bad of ['', 'soon', '5 minutes', '-5m', '12']) assert.equal(parseWhen(bad, now), undefined, bad);
  });
});
