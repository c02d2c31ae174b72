import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseRecords, jsonForHtml, writeStandaloneHtml } from '../../../../src/timeline/node/standaloneHtml';
import { resolveOptions } from '../../../../src/core/sequencer/sequencingOptions';
import type { CaptureSession } from '../../../../src/timeline/captureSession';
import { Kind } from '../../../../src/shared/timelineModel';
import { loadSession } from '../../../../src/timeline/node/loadSession';
import { restoreSession } from '../../../../src/timeline/sessionSnapshot';
import { unpackLanes } from '../../../../src/shared/laneWire';
import { unpackPage } from '../../../../src/shared/pageWire';
import { queryTimeline } from '../../../../src/timeline/timelineQuery';
import { PackedSnapshot, unpackSnapshot } from '../../../../src/shared/snapshotPacking';
import type { StandalonePreview } from '../../../../src/shared/standaloneEmbed';
import { fileRecordSource } from '../../../support/e2e/fileRecords';
import { readFile } from 'node:fs/promises';
import { schemaSetFromSetting } from '../../../../src/core/schema/schemaSetting';
import { embeddedDecoder } from '../../../../src/timeline/embeddedDecoder';

const SAMPLE = join(__dirname, '..', '..', '..', '..', 'media', 'samples', 'cme-sample.jsonl');
const nodeB64 = { encode: (b: Uint8Array) => Buffer.from(b).toString('base64'), decode: (t: string) => new Uint8Array(Buffer.from(t, 'base64')) };

function block<T>(html: string, id: string): T {
  const m = new RegExp(`<script type="application/json" id="${id}">([\\s\\S]*?)</script>`).exec(html);
  assert.ok(m, id);
  return JSON.parse(m[1]) as T;
}

describe('webview standalone export (the HTML file, without a browser)', function () {
  this.timeout(30_000);
  let session: CaptureSession;
  let dir: string;
  let bundleDir: string;

  before(async () => {
    session = (await loadSession([SAMPLE], resolveOptions({ preset: 'cme' }))).session;
    dir = mkdtempSync(join(tmpdir(), 'seqscope-export-'));
    // A stand-in bundle, with the sequences an inline script must not contain verbatim.
    bundleDir = join(dir, 'dist');
    mkdirSync(join(bundleDir, 'webview'), { recursive: true });
    writeFileSync(join(bundleDir, 'webview', 'timeline.js'), 'var s = "</script><b>";\n//# sourceMappingURL=timeline.js.map\n');
    mkdirSync(join(dir, 'media'));
    writeFileSync(join(dir, 'media', 'timeline.css'), 'body { color: red }');
    // The codicons as the build copies them (a stand-in font: the bytes are only inlined).
    mkdirSync(join(bundleDir, 'codicons'));
    writeFileSync(
      join(bundleDir, 'codicons', 'codicon.css'),
      '@font-face { font-family: "codicon"; src: url("./codicon.ttf?abc") format("truetype"); }\n.codicon-add:before { content: "\\ea60" }\n',
    );
    writeFileSync(join(bundleDir, 'codicons', 'codicon.ttf'), Buffer.from([0, 1, 0, 0, 0x3c, 0x2f]));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes one self-contained file: CSP with a fresh nonce, inert data blocks, the bundle inlined', async () => {
    const out = join(dir, 'a.html');
    const records = fileRecordSource(session);
    await writeStandaloneHtml(session, out, { title: 'T <i>', options: 'cme', bundleDir, readRecord: records, maxEmbeddedRecords: 50 });
    await writeStandaloneHtml(session, join(dir, 'b.html'), { title: 'T', options: 'cme', bundleDir, readRecord: records, maxEmbeddedRecords: 50 });
    await records.close();
    const html = readFileSync(out, 'utf8');
    const nonce = /script-src 'nonce-([^']+)'/.exec(html)![1];
    assert.notEqual(nonce, /script-src 'nonce-([^']+)'/.exec(readFileSync(join(dir, 'b.html'), 'utf8'))![1], 'a new nonce per file');
    assert.ok(html.includes('<title>SeqScope — T &#60;i&#62;</title>'), 'title escaped');
    assert.ok(html.includes('var s = "<\\/script><b>";'), 'no </script> inside the inline bundle');
    assert.ok(!html.includes('sourceMappingURL'), 'no source map reference');
    // The codicons inline: the font as a data: URL the CSP admits, and the classes for the web
    // components' shadow roots as a data: stylesheet linked with the nonce.
    assert.match(html, /font-src data:/);
    assert.ok(html.includes(`url("data:font/ttf;base64,${Buffer.from([0, 1, 0, 0, 0x3c, 0x2f]).toString('base64')}")`), 'font inlined');
    assert.ok(!html.includes('./codicon.ttf'), 'no relative font URL left');
    const link = /<link rel="stylesheet" id="vscode-codicon-stylesheet" href="data:text\/css;base64,([^"]+)" nonce="([^"]+)">/.exec(html);
    assert.ok(link, 'codicon stylesheet link');
    assert.equal(link[2], nonce);
    const classes = Buffer.from(link[1], 'base64').toString();
    assert.match(classes, /\.codicon-add:before/);
    assert.doesNotMatch(classes, /@font-face/, 'the font once, in the page');
    assert.ok(html.indexOf('seqscope-preview') < html.indexOf(`<script nonce="${nonce}">`), 'preview before the script');
    assert.ok(html.indexOf(`<script nonce="${nonce}">`) < html.indexOf('seqscope-session'), 'session after the script');
    // The session block is a packed snapshot that unpacks to the session, with 50 records.
    const packed = block<PackedSnapshot>(html, 'seqscope-session');
    const { snapshot, base64 } = await unpackSnapshot(packed, nodeB64);
    const restored = restoreSession(snapshot, base64);
    assert.equal(restored.store.count, session.store.count);
    assert.equal(Object.keys(snapshot.records).length, 50);
    // The preview answers exactly what the page's host would.
    const preview = block<StandalonePreview>(html, 'seqscope-preview');
    assert.equal(preview.init.session.standalone, true);
    assert.deepEqual(
      unpackLanes(preview.init.session.lanes).map((l) => l.name),
      session.keyNames,
    );
    const p = preview.page!;
    assert.deepEqual(unpackPage(p.page), queryTimeline(restored, { t0: p.t0, t1: p.t1, buckets: p.page.buckets, lanes: p.lanes }));
  });

  it('embeds the records of findings first: gap neighbours, duplicates, then messages', () => {
    const chosen = chooseRecords(session, undefined, 40);
    assert.equal(chosen.length, 40);
    const kinds = new Map<number, number>();
    for (let id = 0; id < session.store.count; id++)
      if (session.store.arrival.get(id) >= 0) kinds.set(session.store.arrival.get(id), session.store.kind.get(id));
    const dupArrivals = [...kinds].filter(([, k]) => k === Kind.duplicate).map(([a]) => a);
    for (const a of dupArrivals) assert.ok(chosen.includes(a), `duplicate arrival ${a} embedded`);
    // Each gap's neighbours: the messages released just before and after it.
    for (let k = 0; k < session.keyNames.length; k++) {
      for (const g of session.findings(k, 'gap', 0, 10)) {
        const after = session.store.keys[k].all.toArray().find((id) => id > g.id && session.store.kind.get(id) === Kind.message)!;
        assert.ok(chosen.includes(session.store.arrival.get(after)), `message after gap ${g.seq}`);
      }
    }
    assert.equal(chooseRecords(session, undefined, 0).length, 0);
  });

  it('exports a filtered session with the preview computed from the filtered events', async () => {
    const out = join(dir, 'f.html');
    const records = fileRecordSource(session);
    await writeStandaloneHtml(session, out, { title: 'F', options: 'cme', bundleDir, readRecord: records, filter: { keys: new Set([1]) } });
    await records.close();
    const html = readFileSync(out, 'utf8');
    const { snapshot, base64 } = await unpackSnapshot(block<PackedSnapshot>(html, 'seqscope-session'), nodeB64);
    const restored = restoreSession(snapshot, base64);
    assert.ok(restored.store.count < session.store.count);
    for (let id = 0; id < restored.store.count; id++) if (restored.store.kind.get(id) !== Kind.invalid) assert.equal(restored.store.key.get(id), 1);
    const p = block<StandalonePreview>(html, 'seqscope-preview').page!;
    assert.deepEqual(unpackPage(p.page), queryTimeline(restored, { t0: p.t0, t1: p.t1, buckets: p.page.buckets, lanes: p.lanes }));
  });

  it('opens in the key order it was exported with: the meta says it, the preview is of those lanes first', async () => {
    const out = join(dir, 'o.html');
    const records = fileRecordSource(session);
    await writeStandaloneHtml(session, out, { title: 'O', options: 'cme', bundleDir, readRecord: records, maxEmbeddedRecords: 0, keyOrder: 'findings' });
    await records.close();
    const html = readFileSync(out, 'utf8');
    assert.equal(block<{ keyOrder?: string }>(html, 'seqscope-meta').keyOrder, 'findings');
    const preview = block<StandalonePreview>(html, 'seqscope-preview');
    assert.equal(preview.init.keyOrder, 'findings');
    // The sample: 310 lost 3 numbers, 318 one, 312 none (first seen: 318, 310, 312).
    const names = unpackLanes(preview.init.session.lanes).map((l) => l.name);
    assert.deepEqual(
      preview.page!.lanes.map((k) => names[k]),
      ['310', '318', '312'],
    );
  });

  it('escapes <, > and & (and U+2028/9) in embedded JSON', () => {
    const s = jsonForHtml({ a: '</script><img src=x onerror=alert(1)> & \u2028' });
    assert.ok(!/[<>&\u2028]/.test(s));
    assert.deepEqual(JSON.parse(s), { a: '</script><img src=x onerror=alert(1)> & \u2028' });
  });

  it('stops when cancelled, reading records, packing or writing, and leaves the file that was there', async () => {
    const out = join(dir, 'cancelled.html');
    writeFileSync(out, 'the previous page\n');
    const listing = () => readdirSync(dir).filter((n) => n.includes('cancelled'));
    // Cancelled while the records are read: after the first one.
    const reading = new AbortController();
    let reads = 0;
    await assert.rejects(
      writeStandaloneHtml(session, out, {
        title: 'C',
        options: '',
        bundleDir,
        maxEmbeddedRecords: 500,
        signal: reading.signal,
        readRecord: async () => {
          if (++reads === 1) reading.abort();
          return undefined;
        },
      }),
      { name: 'AbortError' },
    );
    assert.ok(reads <= 64, `stopped within a batch of reads (${reads})`);
    // Cancelled while the columns are packed (on zlib's threads, a column at a time).
    const packing = new AbortController();
    const packRecords = fileRecordSource(session);
    await assert.rejects(
      writeStandaloneHtml(session, out, {
        title: 'C',
        options: '',
        bundleDir,
        readRecord: packRecords,
        maxEmbeddedRecords: 0,
        signal: packing.signal,
        onProgress: (f) => f > 0.6 && packing.abort(),
      }),
      { name: 'AbortError' },
    );
    await packRecords.close();
    assert.equal(readFileSync(out, 'utf8'), 'the previous page\n');
    // Cancelled while the page is written, the file open: at the first check once its temporary
    // file exists, and again two checks later (so the test does not race the writes).
    const writing = new AbortController();
    let checksWhileOpen = 0;
    const signal = {
      get aborted() {
        return writing.signal.aborted;
      },
      throwIfAborted() {
        if (readdirSync(dir).some((n) => n.includes('cancelled') && n.endsWith('.part')) && ++checksWhileOpen === 3) writing.abort();
        writing.signal.throwIfAborted();
      },
    } as AbortSignal;
    const records = fileRecordSource(session);
    await assert.rejects(writeStandaloneHtml(session, out, { title: 'C', options: '', bundleDir, readRecord: records, maxEmbeddedRecords: 0, signal }), {
      name: 'AbortError',
    });
    await records.close();
    assert.equal(checksWhileOpen, 3, 'stopped while writing');
    assert.equal(readFileSync(out, 'utf8'), 'the previous page\n');
    assert.deepEqual(listing(), ['cancelled.html'], 'no partial page beside it');
  });

  it('reports its progress from 0 to 1, and lets other work run between its steps', async () => {
    // A stand-in for the rest of the extension host: it counts turns of the event loop.
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const reports: { fraction: number; turns: number }[] = [];
    const records = fileRecordSource(session);
    try {
      await writeStandaloneHtml(session, join(dir, 'p.html'), {
        title: 'P',
        options: '',
        bundleDir,
        readRecord: records,
        maxEmbeddedRecords: 100,
        onProgress: (fraction) => reports.push({ fraction, turns }),
      });
    } finally {
      ticking = false;
      await records.close();
    }
    const fractions = reports.map((r) => r.fraction);
    assert.ok(fractions.length > 20, `reported ${fractions.length} times`);
    assert.deepEqual(
      fractions,
      [...fractions].sort((a, b) => a - b),
      'never goes back',
    );
    assert.ok(fractions[0] < 0.25 && fractions.at(-1) === 1);
    // The snapshot and packing stages (0.2…0.9) are where a large session held the host for seconds:
    // other work ran between every two of their reports.
    const middle = reports.filter((r) => r.fraction > 0.2 && r.fraction < 0.9);
    assert.ok(middle.length >= 10);
    for (let i = 1; i < middle.length; i++) assert.ok(middle[i].turns > middle[i - 1].turns, `other work ran before report ${middle[i].fraction}`);
  });

  it('says what to do when the bundle is missing', async () => {
    await assert.rejects(
      writeStandaloneHtml(session, join(dir, 'x.html'), { title: 'X', options: '', bundleDir: join(dir, 'nowhere'), readRecord: async () => undefined }),
      /bundle .* is missing: build it first/,
    );
  });

  it('embeds the embedded records decoded by their schemas (the page has no decoder), and the page serves them to the detail pane', async () => {
    const schemaDir = join(__dirname, '..', '..', '..', 'fixtures', 'schemas');
    const schemas = await schemaSetFromSetting({ trades: 'trades.avsc' }, { resolve: (p) => join(schemaDir, p), read: (p) => readFile(p, 'utf8') });
    const avro = (await loadSession([join(schemaDir, 'avro-binary.jsonl')], { ...resolveOptions({ key: 'json:channel', seq: 'json:seq' }), schemas })).session;
    const out = join(dir, 'schemas.html');
    const records = fileRecordSource(avro);
    try {
      await writeStandaloneHtml(avro, out, { title: 'S', options: '', bundleDir, readRecord: records, schemas });
      await writeStandaloneHtml(avro, join(dir, 'plain.html'), { title: 'S', options: '', bundleDir, readRecord: records, maxEmbeddedRecords: 2 });
    } finally {
      await records.close();
    }
    const { snapshot } = await unpackSnapshot(block<PackedSnapshot>(readFileSync(out, 'utf8'), 'seqscope-session'), nodeB64);
    const decoded = snapshot.decoded ?? {};
    assert.deepEqual(
      Object.keys(decoded)
        .map(Number)
        .sort((a, b) => a - b),
      Object.keys(snapshot.records)
        .map(Number)
        .sort((a, b) => a - b),
      'one per embedded record',
    );
    assert.deepEqual(decoded[0], { record: { channel: 'A', seq: 1, price: 101.25, side: 'BUY' }, source: 'trades.avsc' });
    assert.match((decoded[7] as { error: string }).error, /does not match the schema from trades\.avsc: .*price/);
    const page = embeddedDecoder(snapshot.records, snapshot.decoded);
    assert.ok(page);
    const d = page(snapshot.records[0]);
    assert.equal(d?.decoded?.source, 'trades.avsc');
    assert.deepEqual(JSON.parse(d?.decoded?.text ?? ''), { channel: 'A', seq: 1, price: 101.25, side: 'BUY' });
    assert.match(page(snapshot.records[7])?.decodeError ?? '', /field "price"/);
    // Without the definition: what the detail pane says (the next step), for the embedded records only.
    const plain = await unpackSnapshot(block<PackedSnapshot>(readFileSync(join(dir, 'plain.html'), 'utf8'), 'seqscope-session'), nodeB64);
    const why = Object.values(plain.snapshot.decoded ?? {});
    assert.equal(why.length, 2);
    for (const w of why) assert.match((w as { error: string }).error, /--schema trades=FILE\.avsc/);
    assert.equal(embeddedDecoder(plain.snapshot.records, undefined), undefined);
  });
});
