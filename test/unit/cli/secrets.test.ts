/**
 * Planted credentials (a service-account key file, valid and broken, its path, an access token)
 * never reach what SeqScope prints or writes: the CLI's stdout and stderr (with SEQSCOPE_DEBUG=1
 * too) for every Pub/Sub subcommand as it fails on them, the summary, exports of every format,
 * and the standalone HTML. The recording and its metadata are scanned in the emulator tier
 * (test/emulator/secrets.test.ts).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { TRACE_FORMATS } from '../../../src/core/export';
import { resolveOptions } from '../../../src/core/sequencer/sequencingOptions';
import { exitCodeFor } from '../../../src/cli/exitCodes';
import { loadSession } from '../../../src/timeline/node/loadSession';
import { writeStandaloneHtml } from '../../../src/timeline/node/standaloneHtml';
import { buildCli } from '../../support/builtCli';
import { fileRecordSource } from '../../support/e2e/fileRecords';
import { plantSecrets } from '../../support/plantedSecrets';
import { textSink } from '../../support/textSink';

const root = join(__dirname, '..', '..', '..');
const SAMPLE = join(root, 'media', 'samples', 'cme-sample.jsonl');

describe('planted credentials never reach an output', function () {
  this.timeout(300_000);
  const planted = plantSecrets();
  let cli = '';
  let dir = '';

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'seqscope-secrets-'));
    cli = await buildCli(dir, { withPubsub: true });
  });

  function seqscope(env: NodeJS.ProcessEnv, ...args: string[]) {
    const base = { ...process.env };
    delete base.PUBSUB_EMULATOR_HOST;
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', cwd: root, env: { ...base, ...env }, timeout: 60_000 });
    return { code: r.status, out: r.stdout + r.stderr };
  }

  function assertClean(what: string, text: string): void {
    assert.deepEqual(planted.leaks(text), [], `${what} holds a planted secret:\n${text}`);
  }

  it('a key file that is not JSON: every Pub/Sub subcommand fails with one clear line, with and without SEQSCOPE_DEBUG', () => {
    const commands = [
      ['taps'],
      ['record', '--topic', 'feed', '--out', join(dir, 'rec.jsonl')],
      ['record', '--subscription', 'feed-sub', '--out', join(dir, 'rec2.jsonl.gz')],
      ['publish', SAMPLE, '--topic', 'feed'],
      ['seek', '--subscription', 'feed-sub', '--time', '5m'],
    ];
    // Every subcommand on the torn file with SEQSCOPE_DEBUG=1 (what prints the most); `taps` on each file both ways.
    const runs = [
      ...commands.map((args) => ({ file: planted.tornKeyFile, debug: { SEQSCOPE_DEBUG: '1' }, args })),
      ...[planted.tornKeyFile, planted.notJsonKeyFile].map((file) => ({ file, debug: {}, args: commands[0] })),
      { file: planted.notJsonKeyFile, debug: { SEQSCOPE_DEBUG: '1' }, args: commands[0] },
    ];
    for (const { file, debug, args } of runs) {
      const r = seqscope({ ...planted.env(file), ...debug }, ...args);
      const what = `seqscope ${args[0]} (${file === planted.tornKeyFile ? 'torn' : 'not JSON'}${'SEQSCOPE_DEBUG' in debug ? ', SEQSCOPE_DEBUG=1' : ''})`;
      assertClean(what, r.out);
      assert.equal(r.code, 2, `${what}: ${r.out}`);
      assert.equal(
        r.out,
        'seqscope: the credentials file GOOGLE_APPLICATION_CREDENTIALS names is not valid JSON: point GOOGLE_APPLICATION_CREDENTIALS at a valid key file (or unset it and run `gcloud auth application-default login`), or set PUBSUB_EMULATOR_HOST to use the emulator\n',
        what,
      );
    }
    const missing = seqscope(planted.env(join(planted.dir, 'no-such-key.json')), 'taps');
    assert.equal(missing.code, 2);
    assert.match(missing.out, /the credentials file GOOGLE_APPLICATION_CREDENTIALS names does not exist/);
    assertClean('seqscope taps (no such key file)', missing.out);
  });

  it('a valid key file the library signs with (no token: Google Cloud is out of reach or refuses it)', () => {
    const r = seqscope({ ...planted.env(), SEQSCOPE_DEBUG: '1' }, 'taps', '--project', 'seqscope-planted');
    assertClean('seqscope taps (valid key)', r.out);
    assert.equal(r.code, 2, r.out);
  });

  it('replay: the summary, --json and an export of every format', () => {
    const env = { ...planted.env(), SEQSCOPE_DEBUG: '1' };
    const summary = seqscope(env, 'replay', SAMPLE, '--preset', 'cme');
    assert.equal(summary.code, 0, summary.out);
    assertClean('the summary', summary.out);
    assertClean('--json', seqscope(env, 'replay', SAMPLE, '--preset', 'cme', '--json').out);
    for (const format of TRACE_FORMATS) {
      for (const gz of ['', '.gz']) {
        const out = join(dir, `trace-${format}.out${gz}`);
        const r = seqscope(env, 'replay', SAMPLE, '--preset', 'cme', '--export', out, '--format', format);
        assert.equal(r.code, 0, r.out);
        const bytes = readFileSync(out);
        assertClean(`the ${format}${gz} export`, (gz ? gunzipSync(bytes) : bytes).toString() + r.out);
      }
    }
  });

  it('the standalone HTML export', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, planted.env());
    try {
      const { session } = await loadSession([SAMPLE], resolveOptions({ preset: 'cme' }));
      const out = join(dir, 'standalone.html');
      const records = fileRecordSource(session);
      // A stand-in bundle: what is scanned is what the export adds around it.
      const bundleDir = join(dir, 'dist');
      mkdirSync(join(bundleDir, 'webview'), { recursive: true });
      writeFileSync(join(bundleDir, 'webview', 'timeline.js'), 'void 0;\n');
      mkdirSync(join(dir, 'media'), { recursive: true });
      writeFileSync(join(dir, 'media', 'timeline.css'), 'body {}\n');
      mkdirSync(join(bundleDir, 'codicons'));
      writeFileSync(join(bundleDir, 'codicons', 'codicon.css'), '@font-face { src: url("./codicon.ttf") }\n');
      writeFileSync(join(bundleDir, 'codicons', 'codicon.ttf'), '');
      await writeStandaloneHtml(session, out, { title: 'planted', options: 'cme', bundleDir, readRecord: records, maxEmbeddedRecords: 5000 });
      await records.close();
      assertClean('the standalone HTML', readFileSync(out, 'utf8'));
    } finally {
      for (const k of Object.keys(planted.env())) if (!(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
    }
  });

  it('an internal error quoting a key file, as the CLI prints it with SEQSCOPE_DEBUG=1', () => {
    let thrown: unknown;
    try {
      JSON.parse(readFileSync(planted.tornKeyFile, 'utf8'));
    } catch (e) {
      thrown = e;
    }
    const stderr = textSink(false);
    assert.equal(exitCodeFor(thrown, { stderr }, { ...planted.env(planted.tornKeyFile), SEQSCOPE_DEBUG: '1' }), 1);
    assert.match(stderr.text, /^seqscope: internal error: /);
    assertClean('the internal error', stderr.text);
  });
});
