import assert from 'node:assert/strict';
import { appendFileSync, linkSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { captureVersion, inputOverwrittenBy, repeatedInput } from '../../../../src/core/capture/fileIdentity';

describe('inputOverwrittenBy (an export must not write over its own capture)', () => {
  let dir: string;
  let a: string;
  let b: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-identity-'));
    a = join(dir, 'a.jsonl');
    b = join(dir, 'b.jsonl');
    writeFileSync(a, 'a\n');
    writeFileSync(b, 'b\n');
    symlinkSync(a, join(dir, 'link-to-a.jsonl'));
    linkSync(a, join(dir, 'hard-a.jsonl'));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the input a target names, whatever the spelling', () => {
    assert.equal(inputOverwrittenBy(a, [b, a]), a, 'the same path');
    assert.equal(inputOverwrittenBy(join(dir, '.', 'a.jsonl'), [b, a]), a, 'another spelling');
    assert.equal(inputOverwrittenBy(relative(process.cwd(), a), [a]), a, 'relative against absolute');
    assert.equal(inputOverwrittenBy(join(dir, 'link-to-a.jsonl'), [b, a]), a, 'a symbolic link to it');
    assert.equal(inputOverwrittenBy(a, [join(dir, 'link-to-a.jsonl')]), join(dir, 'link-to-a.jsonl'), 'read through a link');
    assert.equal(inputOverwrittenBy(join(dir, 'hard-a.jsonl'), [a]), a, 'a hard link');
  });

  it('lets other files, new files and unreadable inputs through', () => {
    assert.equal(inputOverwrittenBy(b, [a]), undefined);
    assert.equal(inputOverwrittenBy(join(dir, 'new.jsonl'), [a, b]), undefined, 'a file that does not exist yet');
    assert.equal(inputOverwrittenBy(a, [join(dir, 'gone.jsonl')]), undefined);
    assert.equal(inputOverwrittenBy(a, []), undefined);
  });

  it('finds a file named twice among the inputs, whatever the spelling; different files pass', () => {
    assert.deepEqual(repeatedInput([a, b, a]), [a, a], 'the same path');
    assert.deepEqual(repeatedInput([a, join(dir, '.', 'a.jsonl')]), [a, join(dir, '.', 'a.jsonl')], 'another spelling');
    assert.deepEqual(repeatedInput([join(dir, 'link-to-a.jsonl'), b, a]), [join(dir, 'link-to-a.jsonl'), a], 'through a symbolic link');
    assert.deepEqual(repeatedInput([join(dir, 'hard-a.jsonl'), a]), [join(dir, 'hard-a.jsonl'), a], 'a hard link');
    assert.equal(repeatedInput([a, b]), undefined);
    assert.equal(repeatedInput([join(dir, 'gone.jsonl'), join(dir, 'gone.jsonl')]), undefined, 'left to the reader to name');
    assert.equal(repeatedInput([]), undefined);
  });
});

describe('captureVersion (the same captures, unchanged)', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'seqscope-version-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is equal for the same files unchanged, whatever the spelling, and differs when one changes', () => {
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    writeFileSync(a, 'a\n');
    writeFileSync(b, 'b\n');
    symlinkSync(a, join(dir, 'link-to-a.jsonl'));
    const v = captureVersion([a, b]);
    assert.ok(v);
    assert.equal(captureVersion([join(dir, 'link-to-a.jsonl'), join(dir, '.', 'b.jsonl')]), v, 'through a link, another spelling');
    assert.notEqual(captureVersion([b, a]), v, 'in another order');
    assert.notEqual(captureVersion([a]), v, 'fewer files');
    appendFileSync(b, 'more\n');
    assert.notEqual(captureVersion([a, b]), v, 'a file grew (a recording)');
    const grown = captureVersion([a, b]);
    utimesSync(a, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
    assert.notEqual(captureVersion([a, b]), grown, 'written again at the same size');
    rmSync(a);
    assert.equal(captureVersion([a, b]), undefined, 'a file gone');
  });
});
