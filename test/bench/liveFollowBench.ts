/**
 * Follow live in the real workbench against the real Pub/Sub emulator: a tap on a topic that
 * receives 5 000 msg/s over 50 ordering keys (numbered per key, in order) for 10 minutes, the
 * timeline open and following the whole session.
 *
 *   - frame time: every frame the timeline drew while following (its test hook's draw times);
 *     target p95 ≤ 16 ms.
 *   - arrival-to-drawn: for each arrival, how long until a frame first showed it (the hook's
 *     frames that drew the data up to a later end, every page in view fresh); target p95 ≤ 250 ms.
 *   - following: the window showed the whole session at every sample (never a stale width).
 *   - check: the Sessions tree's counts after Detach: every message published delivered, no gap,
 *     no duplicate.
 *
 * Over time: the same figures for each tenth of the run (a minute of the full run), with the load
 * and the cores each kind of process used (/proc): the emulator and the publisher share the
 * machine with the workbench here, as they would not on a user's.
 *
 * SEQSCOPE_BENCH_LIVE_SECONDS shortens the run (the report says so); SEQSCOPE_BENCH_LIVE_RATE sets
 * another rate; SEQSCOPE_BENCH_LIVE_PROFILE=file.cpuprofile writes a CPU profile of the page's
 * renderer (workbench and webview) over the run; SEQSCOPE_BENCH_LIVE_TRACE=dir writes a 3-second
 * Chrome trace of it at a tenth and at nine tenths of the run (trace-<s>s.json, what each thread did
 * frame by frame), with the workbench's DOM changes over those seconds by where they were
 * (trace-<s>s-mutations.json). Standalone: npx tsx test/bench/liveFollowBench.ts (after node esbuild.js --production).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { findWebviewFrame, openWorkbench, runCommand, treeRows } from '../../scripts/vscode-host/workbench.mjs';
import { connect, generatedClientOptions } from '../../src/pubsub/connection';
import { snapshot } from '../support/e2e/browser';
import { tapTopicFromPalette, until } from '../support/e2e/workbench';
import { findEmulator, PubsubEmulator } from '../support/pubsubEmulator';
import { CPU_ROLES, cpuBetween, CpuReading, CpuRole, readCpu } from './processCpu';
import type { DataDraw } from '../../src/webview/timelineSnapshot';
import { checked, count, rate, seconds, table, verdict } from './report';

const FULL_SECONDS = 600;
const SECONDS = Number(process.env.SEQSCOPE_BENCH_LIVE_SECONDS) || FULL_SECONDS;
const RATE = Number(process.env.SEQSCOPE_BENCH_LIVE_RATE) || 5_000;
const KEYS = 50;
const TARGETS = { frameP95Ms: 16, lagP95Ms: 250 } as const;
const TOPIC = 'md-bench';
const PROJECT = 'seqscope-bench';
/** How often the hook is read. */
const SAMPLE_MS = 250;

export interface LiveFollowResult {
  seconds: number;
  published: number;
  /** Messages per second the publisher reached. */
  publishRate: number;
  frames: number;
  frameMs: { p50: number; p95: number; max: number };
  /** Of each frame: the lane layer (rendered or kept), and the overview strip and axis. */
  layerMs: { p50: number; p95: number; max: number };
  overviewMs: { p50: number; p95: number; max: number };
  lagMs: { p50: number; p95: number; max: number };
  /** The newest arrival of each refresh until a frame drew it: the part no refresh interval shortens. */
  pipelineMs: { p50: number; p95: number; max: number };
  /** Of that: the newest arrival until the host sent the state (the refresh, the host's work), its way to the webview, and the webview's until drawn. */
  stagesMs: { host: Percentiles; transit: Percentiles; webview: Percentiles };
  lagSamples: number;
  /** Samples where the window did not show the whole session, or following was off. */
  notFollowing: number;
  samples: number;
  problems: string[];
  /** What the session had received when publishing ended (the Sessions tree's row), and its rate over the run. */
  receivedByEnd: number;
  load: number[];
  /** Each tenth of the run. */
  intervals: LiveInterval[];
  /** Cores used on average over the run, by kind of process. */
  cores: Record<CpuRole, number>;
}

/** A stretch of the run: its frames, arrivals and the machine's load. */
export interface LiveInterval {
  fromS: number;
  toS: number;
  frameP50: number;
  frameP95: number;
  overviewP95: number;
  lagP95: number;
  load1: number;
  /** Cores each kind of process used over the stretch. */
  cores: Record<CpuRole, number>;
}

const WORKBENCH_ROLES: readonly CpuRole[] = ['extension host', 'browser renderers', 'browser, other processes', 'VS Code server'];

function cores(before: CpuReading, after: CpuReading, ms: number): Record<CpuRole, number> {
  const by = cpuBetween(before, after);
  return Object.fromEntries(CPU_ROLES.map((r) => [r, (by.get(r) ?? 0) / (ms / 1000)])) as Record<CpuRole, number>;
}

const progress = (m: string) => process.stderr.write(`[live] ${m}\n`);

type Percentiles = { p50: number; p95: number; max: number };

/** p50, p95 and max by nearest rank (NaN without values). */
function percentiles(values: readonly number[]): Percentiles {
  const s = Float64Array.from(values).sort();
  const at = (p: number) => (s.length ? s[Math.max(1, Math.ceil((p / 100) * s.length)) - 1] : Number.NaN);
  return { p50: at(50), p95: at(95), max: s.length ? s[s.length - 1] : Number.NaN };
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Each arrival's wait until a frame first showed it: the arrivals between two successive data
 * ends (taken as evenly spread, as the publisher paces them) were first drawn by the frame that
 * reached the later end. One value every 5 ms of arrivals.
 */
function arrivalToDrawn(draws: readonly DataDraw[], since: number): number[] {
  const out: number[] = [];
  // From the first frame that drew an arrival of the run (an empty session's end is no time).
  const timed = draws.filter((d) => d.end >= since);
  for (let i = 1; i < timed.length; i++) {
    const { at, end } = timed[i];
    const from = timed[i - 1].end;
    if (end - from > 60_000) throw new Error(`frames drew data ends ${from} then ${end}: not one clock (${JSON.stringify(timed.slice(0, 5))})`);
    for (let a = from + 5; a <= end; a += 5) out.push(at - a);
  }
  return out;
}

export async function benchLiveFollow(): Promise<LiveFollowResult | { skipped: string }> {
  const found = findEmulator();
  if ('missing' in found) return { skipped: found.missing };
  // 3 M messages in 10 minutes, which the emulator keeps (its old generation held 1.9 GB at 2.4 M):
  // in 512 MB it stopped answering publishes after about 800 000.
  const emu = await PubsubEmulator.start(found.launcher, undefined, 4096);
  const conn = await connect({ emulatorHost: emu.host, projectId: PROJECT, env: {} });
  const folder = mkdtempSync(join(tmpdir(), 'seqscope-bench-live-'));
  mkdirSync(join(folder, '.vscode'));
  writeFileSync(
    join(folder, '.vscode', 'settings.json'),
    JSON.stringify({
      'seqscope.pubsub.emulatorHost': emu.host,
      'seqscope.pubsub.projectId': PROJECT,
      'seqscope.pubsub.recordingDirectory': join(folder, 'recordings'),
      'seqscope.timeline.showOnOpen': false,
      'seqscope.seq': 'attribute:n',
      'seqscope.gapTimeout': '2s',
    }),
  );
  const wb = await openWorkbench({ folder, viewport: { width: 1280, height: 800 } });
  const problems: string[] = [];
  try {
    const { page } = wb;
    await conn.client.createTopic(TOPIC);
    await page.locator('.activitybar .action-item a[aria-label^="SeqScope"]').click({ timeout: 60_000 });
    await page.locator('.statusbar-item', { hasText: 'Pub/Sub emulator' }).waitFor({ state: 'visible', timeout: 120_000 });
    await tapTopicFromPalette(page, TOPIC);
    await until(async () => (await treeRows(page, 'seqscope')).some((r) => r.startsWith(`tap · ${TOPIC}`)), 60_000);
    await runCommand(page, 'SeqScope: Show Timeline');
    const frame = await findWebviewFrame(page, 'canvas.ss-canvas', { timeoutMs: 60_000 });

    // One Publish request a tick carries every key's messages, in each key's order, as a feed
    // handler publishes them: the client's per-key queues would make one request a key a tick,
    // 5 000 requests a second whose cost on these 2 cores is the publisher's, not the workbench's.
    const { v1 } = await import('@google-cloud/pubsub');
    const publisherClient = new v1.PublisherClient(await generatedClientOptions(conn.client));
    const topicName = `projects/${PROJECT}/topics/${TOPIC}`;
    const next = new Array<number>(KEYS).fill(1);
    let published = 0;
    let stop = false;
    const profilePath = process.env.SEQSCOPE_BENCH_LIVE_PROFILE;
    const cdp = profilePath ? await page.context().newCDPSession(page) : undefined;
    if (cdp) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.start');
    }
    const started = Date.now();
    const end = started + SECONDS * 1000;
    const traceDir = process.env.SEQSCOPE_BENCH_LIVE_TRACE;
    const traceAt = [Math.round(SECONDS * 0.1), Math.round(SECONDS * 0.9)];
    // A publish that fails (the emulator stops answering) ends the run with what was measured, and the emulator is stopped.
    let publishFailed: string | undefined;
    // One tick every 10 ms publishes what the rate owes by then, round-robin over the keys.
    const publisher = (async () => {
      let owed = 0;
      let k = 0;
      while (!stop && Date.now() < end) {
        owed = ((Date.now() - started) * RATE) / 1000 - published;
        const messages: { data: Buffer; orderingKey: string; attributes: Record<string, string> }[] = [];
        // A Publish request takes up to 1 000 messages: the rest go in the next tick's.
        for (; owed >= 1 && messages.length < 1000; owed--) {
          const n = next[k]++;
          messages.push({ data: Buffer.from(`k${k} ${n}`), orderingKey: `k${k}`, attributes: { n: String(n) } });
          k = (k + 1) % KEYS;
        }
        // Waiting for the request keeps the publisher from running ahead of what the emulator takes.
        if (messages.length) await publisherClient.publish({ topic: topicName, messages });
        published += messages.length;
        await sleep(10);
      }
    })().catch((e: unknown) => {
      publishFailed = `publishing failed after ${count(published)} messages: ${(e as Error).message.split('\n')[0]}`;
      problems.push(publishFailed);
    });

    const frameMs: number[] = [];
    const layerMs: number[] = [];
    const overviewMs: number[] = [];
    const dataDraws: DataDraw[] = [];
    let lastDataDraw = 0;
    let drawsSeen = 0;
    let dataDrawsSeen = 0;
    let samples = 0;
    let notFollowing = 0;
    let lastReport = Date.now();
    const intervals: LiveInterval[] = [];
    const intervalMs = Math.max(5_000, (SECONDS * 1000) / 10);
    const cpuAtStart = readCpu();
    let mark = { at: started, cpu: cpuAtStart, frames: 0, draws: 0 };
    const closeInterval = () => {
      const at = Date.now();
      const cpu = readCpu();
      const c = cores(mark.cpu, cpu, at - mark.at);
      const frames = percentiles(frameMs.slice(mark.frames));
      // The draws of the stretch, with the one before as the start of its first arrivals.
      const lag = percentiles(arrivalToDrawn(dataDraws.slice(Math.max(0, mark.draws - 1)), started));
      intervals.push({
        fromS: (mark.at - started) / 1000,
        toS: (at - started) / 1000,
        frameP50: frames.p50,
        frameP95: frames.p95,
        overviewP95: percentiles(overviewMs.slice(mark.frames)).p95,
        lagP95: lag.p95,
        load1: loadavg()[0],
        cores: c,
      });
      mark = { at, cpu, frames: frameMs.length, draws: dataDraws.length };
    };
    // Whatever happens while sampling, the publisher stops before the emulator does.
    try {
      while (Date.now() < end && !publishFailed) {
        await sleep(SAMPLE_MS);
        // Only the draws since the last read: the whole history (up to 4 096 frames) each time
        // costs the page and this process more and more as the run goes on.
        const s = await snapshot(frame, { draws: drawsSeen, dataDraws: dataDrawsSeen });
        dataDrawsSeen = s.dataDrawsTotal;
        samples++;
        const fresh = s.draws - drawsSeen;
        if (fresh > 0) {
          const n = Math.min(fresh, s.drawMs.length);
          frameMs.push(...s.drawMs.slice(-n));
          layerMs.push(...s.drawPartsMs.layer.slice(-n));
          overviewMs.push(...s.drawPartsMs.overview.slice(-n));
        }
        drawsSeen = s.draws;
        const whole = !!s.window && !!s.domain && s.window.t0 <= s.domain.t0 && s.window.t1 >= s.domain.t1;
        if (s.followLive !== true || !whole) notFollowing++;
        for (const d of s.dataDraws) if (d.at > lastDataDraw) dataDraws.push(d);
        lastDataDraw = dataDraws.at(-1)?.at ?? lastDataDraw;
        if (Date.now() - mark.at >= intervalMs) closeInterval();
        if (traceDir && traceAt.length && Date.now() - started >= traceAt[0] * 1000)
          await traceRenderer(page, join(traceDir, `trace-${traceAt.shift()}s.json`));
        if (Date.now() - lastReport > 30_000) {
          lastReport = Date.now();
          progress(
            `${Math.round((Date.now() - started) / 1000)} s: ${count(published)} published, ${frameMs.length} frames, arrival-to-drawn p95 ${percentiles(arrivalToDrawn(dataDraws, started)).p95.toFixed(0)} ms`,
          );
        }
      }
    } finally {
      stop = true;
      await publisher;
      await publisherClient.close();
    }
    if (Date.now() - mark.at >= intervalMs / 2) closeInterval();
    if (cdp && profilePath) writeFileSync(profilePath, JSON.stringify((await cdp.send('Profiler.stop')).profile));
    const elapsed = (Date.now() - started) / 1000;
    const coresOverRun = cores(cpuAtStart, mark.cpu, mark.at - started);
    const atEnd = (await treeRows(page, 'seqscope'))[0] ?? '';
    const receivedByEnd = Number(/([\d\s]+) received/.exec(atEnd)?.[1].replace(/\s/g, '') ?? Number.NaN);

    // Every message delivered once, in order: the tree's counts once everything has arrived.
    const want = `${count(published).replace(/,/g, ' ')} delivered`;
    let rows: string[] = [];
    await until(async () => (rows = await treeRows(page, 'seqscope')).some((r) => r.replace(/\s+/g, ' ').includes(`${published} received`)), 120_000).catch(
      () => problems.push(`the session did not receive all ${published}: ${rows[0]}`),
    );
    const summary = rows.find((r) => r.startsWith('Summary')) ?? '';
    if (!/ 0 gaps/.test(summary) || !/ 0 dup/.test(summary)) problems.push(`summary: ${summary} (expected ${want}, 0 gaps, 0 dup)`);

    const lagMs = arrivalToDrawn(dataDraws, started);
    // The floor under it: the newest arrival of each refresh until drawn (host → webview → pages → frame).
    const drawn = dataDraws.filter((d) => d.end >= started);
    const pipelineMs = drawn.map((d) => d.at - d.end);
    const staged = drawn.filter((d) => d.sentAt !== undefined && d.receivedAt !== undefined) as Required<DataDraw>[];
    const stagesMs = {
      host: percentiles(staged.map((d) => d.sentAt - d.end)),
      transit: percentiles(staged.map((d) => d.receivedAt - d.sentAt)),
      webview: percentiles(staged.map((d) => d.at - d.receivedAt)),
    };
    return {
      seconds: elapsed,
      published,
      publishRate: published / elapsed,
      frames: frameMs.length,
      frameMs: percentiles(frameMs),
      layerMs: percentiles(layerMs),
      overviewMs: percentiles(overviewMs),
      lagMs: percentiles(lagMs),
      pipelineMs: percentiles(pipelineMs),
      stagesMs,
      lagSamples: dataDraws.length,
      notFollowing,
      samples,
      problems,
      receivedByEnd,
      load: loadavg(),
      intervals,
      cores: coresOverRun,
    };
  } finally {
    await wb.close();
    await conn.close();
    await emu.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

export function liveFollowReport(r: LiveFollowResult | { skipped: string }): string[] {
  if ('skipped' in r) return ['## Follow live in the workbench', '', `SKIPPED: ${r.skipped}`, ''];
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  return [
    '## Follow live in the workbench',
    '',
    `A tap on a topic of the Pub/Sub emulator receiving ${rate(RATE)} msg/s over ${KEYS} ordering keys for ${seconds(r.seconds * 1000)}${SECONDS === FULL_SECONDS ? '' : ` (shortened from ${FULL_SECONDS} s by SEQSCOPE_BENCH_LIVE_SECONDS: a development run)`}, the timeline open and following the whole session; the hook read every ${SAMPLE_MS} ms. Load average at the end ${r.load.map((l) => l.toFixed(1)).join(' ')}.`,
    '',
    table(
      ['figure', 'p50', 'p95', 'max', 'target', ''],
      [
        [
          `frame time (${count(r.frames)} frames)`,
          ms(r.frameMs.p50),
          ms(r.frameMs.p95),
          ms(r.frameMs.max),
          `p95 ≤ ${TARGETS.frameP95Ms} ms`,
          verdict(r.frameMs.p95 <= TARGETS.frameP95Ms),
        ],
        ['of which: the lane layer', ms(r.layerMs.p50), ms(r.layerMs.p95), ms(r.layerMs.max), '', ''],
        ['of which: the overview strip and the axis', ms(r.overviewMs.p50), ms(r.overviewMs.p95), ms(r.overviewMs.max), '', ''],
        [
          `arrival-to-drawn (${count(r.lagSamples)} frames that drew newer data)`,
          ms(r.lagMs.p50),
          ms(r.lagMs.p95),
          ms(r.lagMs.max),
          `p95 ≤ ${TARGETS.lagP95Ms} ms`,
          verdict(r.lagMs.p95 <= TARGETS.lagP95Ms),
        ],
        ['of which: newest arrival of a refresh → drawn', ms(r.pipelineMs.p50), ms(r.pipelineMs.p95), ms(r.pipelineMs.max), '', ''],
        ['… of which: → sent by the extension host', ms(r.stagesMs.host.p50), ms(r.stagesMs.host.p95), ms(r.stagesMs.host.max), '', ''],
        ['… of which: → received by the webview', ms(r.stagesMs.transit.p50), ms(r.stagesMs.transit.p95), ms(r.stagesMs.transit.max), '', ''],
        ['… of which: → drawn', ms(r.stagesMs.webview.p50), ms(r.stagesMs.webview.p95), ms(r.stagesMs.webview.max), '', ''],
      ],
    ),
    '',
    `Published ${count(r.published)} (${rate(r.publishRate)} msg/s reached); received by the end of publishing ${count(r.receivedByEnd)} (${rate(r.receivedByEnd / r.seconds)} msg/s). The whole session in view and following at ${count(r.samples - r.notFollowing)} of ${count(r.samples)} samples ${verdict(r.notFollowing === 0)}. Check: ${checked(r.problems)}`,
    '',
    `Over time (p95 of each stretch; cores: CPU time over the stretch's wall time, of ${cpus().length}):`,
    '',
    table(
      [
        'stretch',
        'frame time p50',
        'p95',
        'overview and axis p95',
        'arrival-to-drawn p95',
        'load (1 min)',
        'cores: browser renderers',
        'cores: rest of the workbench',
        'cores: emulator',
        'cores: publisher, other',
      ],
      r.intervals.map((i) => [
        `${i.fromS.toFixed(0)}–${i.toS.toFixed(0)} s`,
        ms(i.frameP50),
        ms(i.frameP95),
        ms(i.overviewP95),
        ms(i.lagP95),
        i.load1.toFixed(1),
        i.cores['browser renderers'].toFixed(2),
        WORKBENCH_ROLES.filter((role) => role !== 'browser renderers')
          .reduce((a, role) => a + i.cores[role], 0)
          .toFixed(2),
        i.cores['Pub/Sub emulator'].toFixed(2),
        (i.cores['benchmark (publisher, driver)'] + i.cores.other).toFixed(2),
      ]),
    ),
    '',
    `Cores used over the run, by kind of process: ${CPU_ROLES.map((role) => `${role} ${r.cores[role].toFixed(2)}`).join(', ')}.`,
    '',
  ];
}

if (require.main === module) {
  benchLiveFollow()
    .then((r) => process.stdout.write(liveFollowReport(r).join('\n') + '\n'))
    .catch((e: unknown) => {
      process.stderr.write(`${(e as Error).stack ?? e}\n`);
      process.exitCode = 1;
    });
}

/**
 * A 3-second Chrome trace of the page's renderer (what each thread did, frame by frame) to `path`,
 * and beside it the workbench's DOM changes over those seconds, counted by where they were.
 */
async function traceRenderer(page: import('playwright-core').Page, path: string): Promise<void> {
  const session = await page.context().newCDPSession(page);
  const events: unknown[] = [];
  session.on('Tracing.dataCollected', (e: { value: unknown[] }) => events.push(...e.value));
  await session.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,blink,cc,viz,benchmark',
    transferMode: 'ReportEvents',
  });
  // Source text: a function would carry the TypeScript loader's helpers, which the page lacks.
  await page.evaluate(`(() => {
    const counts = {};
    const where = (n) => {
      const path = [];
      for (let e = (n instanceof Element ? n : n && n.parentElement) || null; e && path.length < 6; e = e.parentElement) {
        if (e.id) { path.push('#' + e.id); break; }
        const c = (e.getAttribute('class') || '').split(' ').filter(Boolean).slice(0, 2).join('.');
        if (c) path.push('.' + c);
      }
      return path.reverse().join(' > ');
    };
    const o = new MutationObserver((list) => { for (const m of list) { const k = m.type + ' ' + where(m.target); counts[k] = (counts[k] || 0) + 1; } });
    o.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    globalThis.__seqscopeBenchMutations = { o, counts };
  })()`);
  await sleep(3000);
  const mutations = await page.evaluate(
    `(() => { const m = globalThis.__seqscopeBenchMutations; m.o.disconnect(); return Object.entries(m.counts).sort((a, b) => b[1] - a[1]).slice(0, 40); })()`,
  );
  writeFileSync(path.replace(/\.json$/, '-mutations.json'), JSON.stringify(mutations, null, 1));
  const complete = new Promise((r) => session.once('Tracing.tracingComplete', r));
  await session.send('Tracing.end');
  await complete;
  writeFileSync(path, JSON.stringify(events));
  await session.detach();
}
