import assert from 'node:assert/strict';
import type { CursorState } from '../../../src/shared/protocol';
import {
  base64Bytes,
  clockTime,
  count,
  dateTime,
  duration,
  hexDump,
  missingRange,
  positionText,
  renderPayload,
  tickLabel,
  tickStep,
  ticks,
  utf8Text,
} from '../../../src/webview/format';

const b64 = (s: string | Uint8Array) => Buffer.from(s).toString('base64');

describe('webview format (text the timeline shows)', () => {
  it('formats clock times in UTC with sub-millisecond digits', () => {
    const t = Date.UTC(2026, 10, 30, 9, 30, 0, 105) + 0.217;
    assert.equal(clockTime(t), '09:30:00.105');
    assert.equal(clockTime(t, 0), '09:30:00');
    assert.equal(clockTime(t, 6), '09:30:00.105217');
    assert.equal(dateTime(t), '2026-11-30 09:30:00.105Z');
    assert.equal(clockTime(NaN), '—');
  });

  it('formats durations, counts and missing ranges', () => {
    assert.equal(duration(0.012), '12 µs');
    assert.equal(duration(3.5), '3.5 ms');
    assert.equal(duration(1250), '1.25 s');
    assert.equal(duration(125_000), '2 min 5 s');
    assert.equal(duration(-2), '−2 ms');
    assert.equal(count(1234567), '1\u202f234\u202f567');
    assert.equal(missingRange(7777, 7777), '7777');
    assert.equal(missingRange(41517, 41519, 3), '41517–41519 (3)');
  });

  it('says where replay stands in arrivals, with the end of input as its own step', () => {
    const t = Date.UTC(2026, 10, 30, 9, 30, 1, 234);
    const at = (position: number, time = t) => ({ position, end: 3007, time }) as CursorState;
    assert.equal(positionText(undefined, 3006), 'not started · 3\u202f006 arrivals');
    assert.equal(positionText(at(0, NaN), 3006), 'before the first arrival · 3\u202f006 arrivals');
    assert.equal(positionText(at(3), 3006), 'arrival 3 of 3\u202f006 · 09:30:01.234');
    assert.equal(positionText(at(3006), 3006), 'arrival 3\u202f006 of 3\u202f006 · 09:30:01.234');
    assert.equal(positionText(at(3007), 3006), 'end of input · 3\u202f006 arrivals · 09:30:01.234');
    assert.equal(positionText({ position: 1, end: 1, time: NaN } as CursorState, 0), 'end of input · 0 arrivals');
    assert.equal(positionText(at(1), 1), 'arrival 1 of 1 · 09:30:01.234');
    assert.equal(positionText(undefined, 1), 'not started · 1 arrival');
  });

  it('picks axis ticks at nice steps, never too many', () => {
    assert.equal(tickStep(1, 100), 100);
    assert.equal(tickStep(0.001, 100), 0.1);
    assert.equal(tickStep(1000, 110), 120_000);
    assert.deepEqual(ticks(95, 420, 100), [100, 200, 300, 400]);
    assert.equal(ticks(0, 1e9, 1, 50).length, 50);
    assert.equal(tickLabel(Date.UTC(2026, 0, 1, 1, 2, 3), 1000), '01:02:03');
  });

  it('decodes payloads as JSON, text or hex, and never trusts them', () => {
    const json = renderPayload(b64('{"a":[1,2],"b":"<img src=x onerror=alert(1)>"}'))!;
    assert.deepEqual(json.views, ['json', 'text', 'hex']);
    assert.equal(json.preferred, 'json');
    assert.equal(json.render('json'), '{\n  "a": [\n    1,\n    2\n  ],\n  "b": "<img src=x onerror=alert(1)>"\n}');
    const text = renderPayload(b64('<img src=x onerror=alert(1)>'))!;
    assert.deepEqual(text.views, ['text', 'hex']);
    assert.equal(text.render('text'), '<img src=x onerror=alert(1)>');
    assert.equal(text.render('json'), text.render('hex'), 'an unavailable view falls back to hex');
    const bin = renderPayload(b64(new Uint8Array([0, 1, 2, 0xff, 0xfe])))!;
    assert.deepEqual(bin.views, ['hex']);
    assert.equal(bin.render('hex'), '00000000  00 01 02 ff fe' + ' '.repeat(3 * 11 + 1) + '  .....');
    assert.equal(renderPayload(undefined), undefined);
    // Not base64 at all: shown as the raw text it is.
    assert.deepEqual(renderPayload('not base64!')?.views, ['text']);
  });

  it('handles URL-safe base64, invalid UTF-8 and large payloads', () => {
    assert.deepEqual(base64Bytes('-_8'), new Uint8Array([0xfb, 0xff]));
    assert.equal(base64Bytes('***'), undefined);
    assert.equal(utf8Text(new Uint8Array([0xc3, 0x28])), undefined);
    assert.equal(utf8Text(new Uint8Array([0x47, 0x72, 0xc3, 0xbc])), 'Grü');
    const big = renderPayload(b64('x'.repeat(200_000)))!;
    assert.equal(big.bytes, 200_000);
    assert.ok(big.render('text').length < 70_000, 'text is cut');
    assert.match(big.render('text'), /more bytes$/);
    assert.match(hexDump(new Uint8Array(100_000)), /more bytes$/);
  });
});
