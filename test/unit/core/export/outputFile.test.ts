/** Files written for the user: in place only when whole, the target untouched otherwise, and errors in words. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExportError, OutputFile, writeError } from '../../../../src/core/export/outputFile';
import { runReplay } from '../../../../src/core/replay/replayRun';
import { resolveOptions } from '../../../../src/core/sequencer/sequencingOptions';
import { TraceWriter } from '../../../../src/core/export/traceWriter';
import { captureText, LineSpec } from '../../../support/captureLines';

const FEED: LineSpec[] = [
  { t: 0, channel: '310', seq: 1 },
  { t: 10, channel: '310', seq: 3 },
  { t: 20, channel: '310', seq: 2 },
];

async function write(f: OutputFile, text: string): Promise<void> {
  await new Promise<void>((resolve, reject) => f.stream.end(text, () => resolve()).once('error', reject));
}

describe('OutputFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-output-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const names = () => readdirSync(dir).sort();

  it('writes beside the target and puts the file in place only on commit', async () => {
    const target = join(dir, 'trace.jsonl');
    const f = await OutputFile.open(target);
    await write(f, 'whole\n');
    assert.equal(existsSync(target), false, 'nothing at the target before the commit');
    assert.equal(names().length, 1);
    assert.match(names()[0], /^\.trace\.jsonl\.\d+\.[0-9a-f]{8}\.part$/);
    await f.commit();
    assert.deepEqual(names(), ['trace.jsonl']);
    assert.equal(readFileSync(target, 'utf8'), 'whole\n');
    await f.discard(); // after a commit: nothing
    assert.equal(readFileSync(target, 'utf8'), 'whole\n');
  });

  it('removes what an export killed outright left beside the target, and nothing else', async () => {
    const target = join(dir, 'trace.jsonl');
    // A process that has ended: its pid names no one now.
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number;
    const alive = process.ppid;
    const old = (Date.now() - 3_600_000) / 1000;
    const part = (name: string, mtime?: number) => {
      writeFileSync(join(dir, name), 'cut off');
      if (mtime !== undefined) utimesSync(join(dir, name), mtime, mtime);
    };
    part(`.trace.jsonl.${dead}.0badf00d.part`, old); // abandoned: goes
    part(`.trace.jsonl.${dead}.0000beef.part`); // written a moment ago (another machine's, say): stays
    part(`.trace.jsonl.${alive}.12345678.part`, old); // its process runs: stays
    part(`.other.jsonl.${dead}.0badf00d.part`, old); // another target's: stays
    part(`.trace.jsonl.${dead}.notours.part`, old); // not a name we make: stays
    const f = await OutputFile.open(target);
    await write(f, 'whole\n');
    await f.commit();
    assert.deepEqual(
      names(),
      [
        `.other.jsonl.${dead}.0badf00d.part`,
        `.trace.jsonl.${alive}.12345678.part`,
        `.trace.jsonl.${dead}.0000beef.part`,
        `.trace.jsonl.${dead}.notours.part`,
        'trace.jsonl',
      ].sort(),
    );
  });

  it('discard leaves an existing target as it was and no partial file', async () => {
    const target = join(dir, 'trace.jsonl');
    writeFileSync(target, 'the previous export\n');
    const f = await OutputFile.open(target);
    f.stream.write('half of a new one');
    await f.discard();
    await f.discard(); // twice: nothing more
    assert.deepEqual(names(), ['trace.jsonl']);
    assert.equal(readFileSync(target, 'utf8'), 'the previous export\n');
    await assert.rejects(f.commit(), /already discarded/);
  });

  it('a file written over keeps its permissions, and a link keeps pointing at the file it names', async () => {
    const real = join(dir, 'real.jsonl');
    writeFileSync(real, 'old\n');
    chmodSync(real, 0o600);
    const link = join(dir, 'link.jsonl');
    symlinkSync(real, link);
    const f = await OutputFile.open(link);
    await write(f, 'new\n');
    await f.commit();
    assert.ok(lstatSync(link).isSymbolicLink(), 'the link is still a link');
    assert.equal(readlinkSync(link), real);
    assert.equal(readFileSync(real, 'utf8'), 'new\n');
    assert.equal(statSync(real).mode & 0o777, 0o600);
    assert.deepEqual(names(), ['link.jsonl', 'real.jsonl']);
  });

  it('refuses a file the user may not write, as writing it in place did, rather than renaming over it', async () => {
    const target = join(dir, 'kept.jsonl');
    writeFileSync(target, 'read-only on purpose\n');
    chmodSync(target, 0o444);
    // Root may write anything, so the refusal is also checked with the permission check failing
    // as it does for everyone else (`access` is what OutputFile asks).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fsp = require('node:fs/promises') as { access: (...a: unknown[]) => Promise<void> };
    const realAccess = fsp.access;
    const denied = Object.assign(new Error(`EACCES: permission denied, access '${target}'`), { code: 'EACCES' });
    fsp.access = async (...a: unknown[]) => (a[0] === target ? Promise.reject(denied) : realAccess(...a));
    try {
      await assert.rejects(OutputFile.open(target), (e: unknown) => {
        assert.ok(e instanceof ExportError);
        assert.equal(e.message, `cannot write ${target}: permission denied`);
        assert.equal(e.nextStep, 'export to a folder you may write to');
        return true;
      });
    } finally {
      fsp.access = realAccess;
    }
    if (process.getuid?.() !== 0) await assert.rejects(OutputFile.open(target), /permission denied/);
    assert.deepEqual(names(), ['kept.jsonl'], 'nothing created beside it');
    assert.equal(readFileSync(target, 'utf8'), 'read-only on purpose\n');
  });

  it('writes a device directly: no temporary file beside /dev/null, and the device stays a device', async function () {
    if (!existsSync('/dev/null')) this.skip();
    const before = readdirSync('/dev').filter((n) => n.startsWith('.null'));
    const f = await OutputFile.open('/dev/null');
    assert.equal(f.left, undefined, 'nothing to keep or lose');
    await write(f, 'gone\n');
    await f.commit();
    assert.ok(statSync('/dev/null').isCharacterDevice());
    assert.deepEqual(
      readdirSync('/dev').filter((n) => n.startsWith('.null')),
      before,
    );
  });

  it('a failed commit removes the temporary file and says the target is as it was', async () => {
    const target = join(dir, 'trace.jsonl');
    const f = await OutputFile.open(target);
    await write(f, 'whole\n');
    // Something else takes the name meanwhile, in a way a rename cannot replace.
    mkdirSync(target);
    writeFileSync(join(target, 'inside'), 'x');
    await assert.rejects(f.commit(), (e: unknown) => {
      assert.ok(e instanceof ExportError, String(e));
      assert.match(e.message, new RegExp(`^cannot write ${target}: .*; no file was left there$`));
      return true;
    });
    assert.deepEqual(names(), ['trace.jsonl']);
    assert.deepEqual(readdirSync(target), ['inside']);
  });

  it('says why a path cannot be written, and what to do', async () => {
    const missing = join(dir, 'no', 'such', 'trace.jsonl');
    await assert.rejects(OutputFile.open(missing), (e: unknown) => {
      assert.ok(e instanceof ExportError);
      assert.equal(e.code, 'ENOENT');
      assert.equal(e.message, `cannot write ${missing}: the folder ${join(dir, 'no', 'such')} does not exist`);
      assert.equal(e.nextStep, 'create it, or export to a folder that exists');
      return true;
    });
    await assert.rejects(OutputFile.open(dir), (e: unknown) => {
      assert.ok(e instanceof ExportError);
      assert.equal(e.message, `cannot write ${dir}: it is a folder`);
      assert.equal(e.nextStep, `name a file in it, e.g. ${join(dir, 'trace.jsonl')}`);
      return true;
    });
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    await assert.rejects(
      OutputFile.open(join(file, 'trace.jsonl')),
      (e: unknown) => e instanceof ExportError && e.code === 'ENOTDIR' && /part of the path .* is a file, not a folder/.test(e.message),
    );
    assert.deepEqual(names(), ['a-file'], 'a refused open leaves nothing behind');

    const full = writeError('/x/t.jsonl', Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }), 'unchanged');
    assert.equal(full.message, 'cannot write /x/t.jsonl: the disk is full; t.jsonl is as it was before');
    assert.equal(full.nextStep, 'free some space, or export to another disk');
    const other = writeError('stdout', new Error('socket hang up'));
    assert.equal(other.message, 'cannot write stdout: socket hang up');
    assert.equal(other.nextStep, 'check the path, or export somewhere else');
  });
});

describe('runReplay and the export it writes', () => {
  let dir: string;
  let feed: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-run-output-'));
    feed = join(dir, 'feed.jsonl');
    writeFileSync(feed, captureText(FEED));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const options = resolveOptions({ preset: 'cme' });

  it('a capture that cannot be read leaves the previous export as it was, and no partial file', async () => {
    const out = join(dir, 'trace.jsonl');
    writeFileSync(out, 'the previous export\n');
    for (const paths of [[join(dir, 'typo.jsonl')], [feed, join(dir, 'typo.jsonl')]]) {
      const writer = await TraceWriter.open(out, 'jsonl');
      await assert.rejects(runReplay({ paths, options, writer }), /cannot read .*typo\.jsonl: no such file/);
      assert.equal(readFileSync(out, 'utf8'), 'the previous export\n');
      assert.deepEqual(readdirSync(dir).sort(), ['feed.jsonl', 'trace.jsonl']);
    }
  });

  it('a cancelled run keeps what it wrote, or with "discard trace" leaves the target as it was', async () => {
    const out = join(dir, 'trace.jsonl');
    const cancelled = AbortSignal.abort();
    writeFileSync(out, 'the previous export\n');
    const kept = await runReplay({ paths: [feed], options, writer: await TraceWriter.open(out, 'jsonl'), signal: cancelled });
    assert.equal(kept.cancelled, true);
    assert.equal(readFileSync(out, 'utf8'), '', 'the CLI keeps the cut-off trace, here cut before its first event (its summary says so)');

    writeFileSync(out, 'the previous export\n');
    const dropped = await runReplay({ paths: [feed], options, writer: await TraceWriter.open(out, 'jsonl'), signal: cancelled, onCancel: 'discard trace' });
    assert.equal(dropped.cancelled, true);
    assert.equal(readFileSync(out, 'utf8'), 'the previous export\n');
    assert.deepEqual(readdirSync(dir).sort(), ['feed.jsonl', 'trace.jsonl']);
  });

  it('a gzip export is discarded the same way', async () => {
    const out = join(dir, 'trace.jsonl.gz');
    const writer = await TraceWriter.open(out, 'jsonl');
    await assert.rejects(runReplay({ paths: [join(dir, 'typo.jsonl')], options, writer }), /no such file/);
    assert.deepEqual(readdirSync(dir).sort(), ['feed.jsonl']);
  });
});
