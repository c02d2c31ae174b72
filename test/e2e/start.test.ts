/**
 * `npm start` in server mode (where `code` is not on the PATH, as here): it serves VS Code with
 * SeqScope under development, prints the URL, and the workbench at that URL shows the sample's
 * timeline; Ctrl+C stops it.
 */
import * as assert from 'node:assert/strict';
import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { ROOT } from '../../scripts/vscode-host/common.mjs';
import { findWebviewFrame, launchBrowser, screenshot } from '../../scripts/vscode-host/workbench.mjs';
import { settled } from '../support/e2e/browser';
import { SHOTS } from '../support/e2e/workbench';

describe('npm start, server mode (e2e)', () => {
  let child: ChildProcess | undefined;
  let context: BrowserContext | undefined;
  const profile = mkdtempSync(join(tmpdir(), 'seqscope-e2e-start-'));
  let output = '';

  after(async () => {
    await context?.close();
    // A failed test still stops the server it started (start.mjs stops it on SIGINT).
    if (child && child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGINT');
      await gone;
    }
    rmSync(profile, { recursive: true, force: true });
  });

  it('prints a URL where the workbench shows the sample timeline, and stops on Ctrl+C', async () => {
    // Built already (the e2e tier builds first); `npm start` is the build, then this script.
    child = spawn(process.execPath, [join(ROOT, 'scripts', 'start.mjs'), '--server'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    const proc = child;
    proc.stderr!.on('data', (d: Buffer) => (output += d.toString()));
    const url = await new Promise<string>((resolve, reject) => {
      proc.stdout!.on('data', (d: Buffer) => {
        output += d.toString();
        const m = /^ {2}(http:\/\/127\.0\.0\.1:\d+\/\?\S+)$/m.exec(output);
        if (m) resolve(m[1]);
      });
      proc.on('exit', (code) => reject(new Error(`npm start's server mode exited (${code}) before printing a URL:\n${output}`)));
    });
    assert.match(output, /Ctrl\+C stops it/);

    context = await launchBrowser(profile);
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(url);
    await page.waitForSelector('.monaco-workbench', { timeout: 120_000 });
    // The sample opens in SeqScope's editor (the demo folder's settings associate *.jsonl with it).
    await page.locator('.tab', { hasText: 'cme-sample.jsonl' }).waitFor({ timeout: 60_000 });
    const frame = await findWebviewFrame(page, 'canvas.ss-canvas', { timeoutMs: 60_000 }).catch(async (e: Error) => {
      throw new Error(`${e.message}; the window: ${await screenshot(page, join(SHOTS, 'FAILED-npm-start.png'))}`);
    });
    const s = await settled(frame, 60_000);
    assert.deepEqual(s.lanes.map((l) => l.name).sort(), ['310', '312', '318'], 'the sample, by channel (CME preset)');
    assert.equal(s.marks?.gap, 2);
    await screenshot(page, join(SHOTS, 'npm-start.png'));

    const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
    proc.kill('SIGINT');
    assert.equal(await exited, 0, `exits cleanly on Ctrl+C:\n${output}`);
    assert.match(output, /Stopping the VS Code server/);
  });
});
