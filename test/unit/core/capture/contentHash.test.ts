import assert from 'node:assert/strict';
import fc from 'fast-check';
import { contentDifferences, contentHash, dataHash, dataHashBytes, fnv, FNV_PRIME, SEED } from '../../../../src/core/capture/contentHash';
import { dataHashBase64 } from '../../../../src/core/capture/avroFixedLayout';

describe('contentHash', () => {
  it('hashes data four units a step, the last one to three a unit a step', () => {
    assert.equal(dataHash(''), SEED);
    assert.equal(dataHash('ab'), fnv(SEED, 'ab'), 'shorter than a word: as FNV-1a');
    const word = 0x61 | (0x62 << 8) | (0x63 << 16) | (0x64 << 24);
    assert.equal(dataHash('abcde'), Math.imul(Math.imul(SEED ^ word, FNV_PRIME) ^ 0x65, FNV_PRIME));
  });

  it('gives the same data hash from the text, its bytes and the raw bytes base64 stands for', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.nat(3), (raw, cut) => {
        const text = Buffer.from(raw).toString('base64');
        assert.equal(dataHashBase64(raw, 0, raw.length), dataHash(text), 'padded base64');
        // Unpadded or cut text (not base64 any more): still a string of ASCII units.
        const ascii = text.slice(0, Math.max(0, text.length - cut));
        assert.equal(dataHashBytes(Buffer.from(ascii, 'latin1'), 0, ascii.length), dataHash(ascii));
      }),
      { numRuns: 500 },
    );
  });

  it('tells data that differs in one place, wherever the place, and units past Latin-1', () => {
    const base = 'eyJNc2dTZXFOdW0iOjM2MDQzLCJDaGFubmVsIjoiMzE2In0=';
    const seen = new Set<number>([dataHash(base)]);
    for (let i = 0; i < base.length; i++) {
      const changed = base.slice(0, i) + (base[i] === 'A' ? 'B' : 'A') + base.slice(i + 1);
      seen.add(dataHash(changed));
    }
    assert.equal(seen.size, base.length + 1, 'every one-place change hashes apart');
    assert.notEqual(dataHash('ab\u0100c'), dataHash('ab\u0000c'));
  });

  it('changes with data, attributes and ordering key, not with the attributes order', () => {
    const m = { messageId: '1', data: 'AAEC', attributes: { a: '1', b: '2' }, orderingKey: 'k' };
    assert.equal(contentHash(m), contentHash({ ...m, attributes: { b: '2', a: '1' } }));
    assert.notEqual(contentHash(m), contentHash({ ...m, data: 'AAED' }));
    assert.notEqual(contentHash(m), contentHash({ ...m, attributes: { a: '1', b: '3' } }));
    assert.notEqual(contentHash(m), contentHash({ ...m, orderingKey: 'j' }));
    assert.deepEqual(contentDifferences(m, { ...m, data: 'AAED', orderingKey: 'j' }), ['data', 'ordering key']);
  });
});
