/**
 * Planted credentials (test/support/plantedSecrets.ts) in the real extension host, where a user's
 * would be: GOOGLE_APPLICATION_CREDENTIALS naming a service-account key file (valid, torn, not
 * JSON, missing) and access tokens in the environment. The commands that read them or log run as
 * a user runs them — Tap Topic… and Attach… against Google Cloud (out of reach: each fails), a
 * tap on the emulator recorded and detached, a capture opened and exported in every format and
 * as the standalone HTML — with the log at its most verbose (trace). Then every file of the
 * host's logs folder (SeqScope's LogOutputChannel among them), every notification shown, the
 * exports and the recording are scanned: no planted secret in any. The CLI's outputs are
 * scanned in test/unit/cli/secrets.test.ts and test/emulator/secrets.test.ts.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { TRACE_FORMATS } from '../../src/core/export';
import type { SeqScopeApi } from '../../src/extension/extension';
import type { LiveResult } from '../../src/extension/liveArgs';
import type * as PubsubLayer from '../../src/pubsub';
import { plantSecrets } from '../support/plantedSecrets';
import { announceMissing, findEmulator, PubsubEmulator } from '../support/pubsubEmulator';
import { failingCommand, until } from './hostProbes';
import { stubber } from './windowStubs';

const EXTENSION_ID = 'seqscope.seqscope';
const PROJECT = 'seqscope-planted';

/**
 * The logs folder of this window's extension host: `<user-data-dir>/logs/<time>/`, the
 * `--user-data-dir` the VS Code server (an ancestor of this process) was started with; the
 * newest session in it.
 */
function hostLogsFolder(): string {
  for (let pid = process.pid; pid > 1; ) {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const at = args.indexOf('--user-data-dir');
    if (at >= 0) {
      const logs = join(args[at + 1], 'logs');
      const sessions = readdirSync(logs).sort();
      return join(logs, sessions[sessions.length - 1]);
    }
    // /proc/<pid>/stat: "pid (name) state ppid …"; the name may hold spaces.
    pid = Number(
      readFileSync(`/proc/${pid}/stat`, 'utf8')
        .replace(/^.*\) /s, '')
        .split(' ')[1],
    );
  }
  throw new Error('no ancestor of the extension host was started with --user-data-dir');
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

describe('planted credentials in the real extension host: never in its logs, notifications, exports or recordings', function () {
  this.timeout(180_000);
  const planted = plantSecrets();
  const restore: (() => unknown)[] = [];
  const stub = stubber(restore);
  /** Every notification shown while planted, as its text (and its buttons). */
  const shown: string[] = [];
  let api: SeqScopeApi;
  let out = '';

  async function setting(key: string, value: unknown): Promise<void> {
    await vscode.workspace.getConfiguration('seqscope.pubsub').update(key, value, vscode.ConfigurationTarget.Global);
  }

  function assertClean(what: string, text: string): void {
    assert.deepEqual(planted.leaks(text), [], `${what} holds a planted secret`);
  }

  before(async () => {
    api = await vscode.extensions.getExtension<SeqScopeApi>(EXTENSION_ID)!.activate();
    out = mkdtempSync(join(tmpdir(), 'seqscope-it-secrets-'));
    // The most the log writes: what a user asked to see when reporting a problem.
    const level = await vscode.commands.executeCommand<string>('_extensionTests.getLogLevel');
    await vscode.commands.executeCommand('_extensionTests.setLogLevel', 'trace');
    restore.push(() => vscode.commands.executeCommand('_extensionTests.setLogLevel', level ?? 'info'));
    const saved = { ...process.env };
    restore.push(() => {
      for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
      Object.assign(process.env, saved);
    });
    Object.assign(process.env, planted.env());
    delete process.env.PUBSUB_EMULATOR_HOST;
    for (const [key, value] of [
      ['emulatorHost', undefined],
      ['projectId', PROJECT],
    ] as const) {
      const was = vscode.workspace.getConfiguration('seqscope.pubsub').inspect(key)?.globalValue;
      await setting(key, value);
      restore.push(() => setting(key, was));
    }
    for (const kind of ['showErrorMessage', 'showWarningMessage', 'showInformationMessage'] as const) {
      stub(
        kind,
        (async (message: string, ...rest: unknown[]) => void shown.push([message, ...rest.filter((r) => typeof r === 'string')].join(' | '))) as never,
      );
    }
  });

  after(async () => {
    await vscode.commands.executeCommand('seqscope.session.closeAll');
    for (const r of restore.reverse()) await r();
    rmSync(out, { recursive: true, force: true });
    rmSync(planted.dir, { recursive: true, force: true });
  });

  it('Tap Topic… and Attach… on Google Cloud with a key file torn, not JSON, missing and valid (out of reach): one error each, clean', async () => {
    const files = [
      ['torn', planted.tornKeyFile, /not valid JSON/],
      ['not JSON', planted.notJsonKeyFile, /not valid JSON/],
      ['missing', join(planted.dir, 'no-such-key.json'), /does not exist/],
    ] as const;
    for (const [what, file, expected] of files) {
      process.env.GOOGLE_APPLICATION_CREDENTIALS = file;
      for (const command of ['seqscope.pubsub.tapTopic', 'seqscope.pubsub.attach'] as const) {
        const error = await failingCommand(command);
        assert.match(error, expected, `${command}, key file ${what}`);
        assertClean(`${command}'s error, key file ${what}`, error);
      }
    }
    // A key the library signs with: it asks Google for a token (or Pub/Sub, which refuses it).
    process.env.GOOGLE_APPLICATION_CREDENTIALS = planted.keyFile;
    const error = await failingCommand('seqscope.pubsub.tapTopic');
    assertClean("Tap Topic…'s error, key file valid", error);
  });

  it('a capture opened, exported in every format and as the standalone HTML', async () => {
    const sample = join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'media', 'samples', 'cme-sample.jsonl');
    const opened = await vscode.commands.executeCommand<{ id: string }>('seqscope.capture.open', vscode.Uri.file(sample), { preset: 'cme' });
    assert.ok(opened, 'the sample opened');
    for (const format of [...TRACE_FORMATS, 'html']) {
      const path = join(out, `trace.${format}`);
      assert.equal(await vscode.commands.executeCommand('seqscope.session.exportTrace', opened.id, { format, path }), path);
      const text = readFileSync(path, 'utf8');
      assert.ok(text.length > 1000, `the ${format} export holds the session`);
      assertClean(`the ${format} export`, text);
    }
    await vscode.commands.executeCommand('seqscope.session.closeAll');
  });

  it('a tap on the emulator, recorded and detached, with the credentials still planted', async function () {
    const found = findEmulator();
    if ('missing' in found) {
      announceMissing(found.missing, 'the planted-secrets tap');
      this.skip();
    }
    const emu = await PubsubEmulator.start((found as { launcher: string }).launcher);
    try {
      await setting('emulatorHost', emu.host);
      const ext = vscode.extensions.getExtension<SeqScopeApi>(EXTENSION_ID)!;
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const layer = require(join(ext.extensionPath, 'dist', 'pubsub.js')) as typeof PubsubLayer;
      const conn = await layer.connect({ emulatorHost: emu.host, projectId: PROJECT, env: {} });
      try {
        const [topic] = await conn.client.createTopic('planted-feed');
        const result = await vscode.commands.executeCommand<LiveResult>('seqscope.pubsub.tapTopic', {
          topic: 'planted-feed',
          options: { seq: 'attribute:n', gapTimeout: '500ms' },
        });
        assert.ok(result, `tapped: ${shown.join(' | ')}`);
        const session = api.manager.get(result.id)!;
        await Promise.all([1, 2, 3, 4, 5].map((n) => topic.publishMessage({ data: Buffer.from(`m${n}`), attributes: { n: String(n) } })));
        await until('5 received', () => session.live && session.live.received >= 5, 60_000);
        await vscode.commands.executeCommand('seqscope.live.detach', session.id);
        const reopened = await until('the recording reopened', () => api.manager.all.find((s) => !s.live && s.data.paths[0] === result.recording));
        assert.equal(reopened.data.summary.received, 5);
        const recording = readFileSync(result.recording, 'utf8');
        assert.equal(recording.trim().split('\n').length, 5);
        assertClean('the recording', recording);
      } finally {
        await vscode.commands.executeCommand('seqscope.session.closeAll');
        await conn.close();
      }
    } finally {
      await setting('emulatorHost', undefined);
      await emu.stop();
    }
  });

  it("the host's logs (SeqScope's log channel at trace level among them) and every notification: none holds a planted secret", async () => {
    // The scan can fail: the secrets are where a user's would be.
    assert.ok(planted.leaks(readFileSync(planted.keyFile, 'utf8')).length >= 4, 'the key file holds the planted key');
    assert.ok(planted.leaks(readFileSync(planted.tornKeyFile, 'utf8')).length >= 4, 'the torn key file holds the planted key');
    assert.ok(planted.leaks(JSON.stringify(process.env)).includes('the access token'), 'the environment holds the planted token');
    const logs = hostLogsFolder();
    const channel = filesUnder(logs).find((f) => f.endsWith(join(EXTENSION_ID, 'SeqScope.log')));
    assert.ok(channel && existsSync(channel), `SeqScope's log channel under ${logs}: ${filesUnder(logs).join(', ')}`);
    // What the commands above logged has reached the file (the logger writes it in the background).
    await until("the failed Tap Topic… in SeqScope's log", () => /not valid JSON/.test(readFileSync(channel, 'utf8')), 30_000);
    // At trace level: the errors' stacks (logged at debug) are in it too.
    assert.match(readFileSync(channel, 'utf8'), /\[debug\]/, "SeqScope's log holds debug lines");
    const files = filesUnder(logs);
    for (const f of files) assertClean(f, readFileSync(f, 'utf8'));
    assert.ok(shown.length >= 7, `the notifications were seen: ${shown.length}`);
    assertClean('the notifications', shown.join('\n'));
    console.log(`    scanned ${files.length} log files (${files.reduce((n, f) => n + readFileSync(f).length, 0)} bytes) and ${shown.length} notifications`);
  });
});
