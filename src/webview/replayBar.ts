/**
 * Step-through replay controls (VS Code only: a standalone export has no sequencer to drive, so
 * the app never shows this there) and the state panel: per key, the number it expects, what it
 * holds, and the gap it waits on and for how long. The extension's replay controller owns the
 * cursor; this only sends `replay` / `setSpeed` / `seek` and shows the `replay` replies.
 */
import { noun } from '../core/util/plural';
import type { ReplayAction, ReplayInfo, ReplaySpeed, SessionInfo, WebviewMessage } from '../shared/protocol';
import { IDLE_REPLAY } from '../shared/protocol';
import { iconButton, relabel, singleSelect, VscodeSingleSelect, VscodeToolbarButton } from './controls';
import { clear, el, setText } from './dom';
import { count, duration, missingRange, positionText } from './format';
import { displayKey } from '../core/trace/keyLabel';

/** Seeks while dragging the slider go out at most this often (the host re-runs the sequencer). */
const SEEK_INTERVAL_MS = 100;

export class ReplayBar {
  readonly root: HTMLElement;
  readonly statePanel: HTMLElement;
  private readonly play: VscodeToolbarButton;
  private readonly speed: VscodeSingleSelect;
  private readonly slider: HTMLInputElement;
  private readonly position: HTMLElement;
  private dragging = false;
  private seekTimer: number | undefined;
  private lastSeek = 0;
  private info: ReplayInfo = IDLE_REPLAY;

  constructor(private readonly send: (msg: WebviewMessage) => void) {
    const act = (icon: string, label: string, action: ReplayAction, text?: string) =>
      iconButton(icon, label, () => this.send({ type: 'replay', action }), text);
    this.play = iconButton('play', 'Play', () => this.send({ type: 'replay', action: this.info.playing ? 'pause' : 'play' }));
    this.speed = singleSelect('Replay speed', [
      { value: '1', text: '×1' },
      { value: '10', text: '×10' },
      { value: 'max', text: 'max' },
    ]);
    this.speed.classList.add('ss-speed');
    this.speed.addEventListener('change', () => {
      const v = this.speed.value;
      this.send({ type: 'setSpeed', speed: (v === 'max' ? 'max' : Number(v)) as ReplaySpeed });
    });
    this.slider = el('input', { class: 'ss-slider', attrs: { type: 'range', min: 0, max: 1, value: 0, step: 1, 'aria-label': 'Replay position' } });
    this.slider.addEventListener('input', () => {
      this.dragging = true;
      this.seekSoon();
    });
    this.slider.addEventListener('change', () => {
      this.dragging = false;
      this.seekNow();
    });
    this.position = el('span', { class: 'ss-replay-position', attrs: { 'aria-live': 'polite' } });
    this.root = el('div', { class: 'ss-replay', attrs: { role: 'toolbar', 'aria-label': 'Replay' } }, [
      // The debugger's icons: replay steps through arrivals as a debugger through statements.
      act('debug-restart', 'Back to the start', 'toStart'),
      act('debug-step-back', 'Step back one arrival', 'stepBack'),
      this.play,
      act('debug-step-over', 'Step forward one arrival', 'stepForward'),
      act('debug-continue', 'To the end', 'toEnd'),
      this.speed,
      el('span', { class: 'ss-sep', attrs: { role: 'separator' } }),
      act('', 'Step to the next gap', 'nextGap', 'Next gap'),
      act('', 'Step to the next duplicate', 'nextDuplicate', 'Next duplicate'),
      act('', 'Step to the next late message', 'nextLate', 'Next late'),
      act('', 'Step to the next reordered message', 'nextReordered', 'Next reordered'),
      act('', 'Step to the next sequence reset', 'nextReset', 'Next reset'),
      this.slider,
      this.position,
    ]);
    this.statePanel = el('aside', { class: 'ss-state', attrs: { 'aria-label': 'Sequencer state at the replay position', hidden: true } });
  }

  update(info: ReplayInfo, session: SessionInfo): void {
    this.info = info;
    const end = info.state?.end ?? session.arrivals + 1;
    this.slider.max = String(end);
    if (!this.dragging) this.slider.value = String(info.state?.position ?? 0);
    relabel(this.play, info.playing ? 'debug-pause' : 'play', info.playing ? 'Pause' : 'Play');
    if (this.speed.value !== String(info.speed)) this.speed.value = String(info.speed);
    const s = info.state;
    setText(this.position, positionText(s, session.arrivals));
    this.renderState(info);
  }

  private seekSoon(): void {
    const wait = SEEK_INTERVAL_MS - (performance.now() - this.lastSeek);
    if (wait <= 0) this.seekNow();
    else if (this.seekTimer === undefined) this.seekTimer = window.setTimeout(() => this.seekNow(), wait);
  }

  private seekNow(): void {
    if (this.seekTimer !== undefined) clearTimeout(this.seekTimer);
    this.seekTimer = undefined;
    this.lastSeek = performance.now();
    this.send({ type: 'seek', position: Number(this.slider.value) });
  }

  private renderState(info: ReplayInfo): void {
    const p = this.statePanel;
    const s = info.state;
    p.hidden = !info.active || !s;
    clear(p);
    if (!s) return;
    p.append(el('h2', { text: 'Sequencer state' }));
    const c = s.current;
    p.append(
      el('p', {
        class: 'ss-muted',
        text: c
          ? `Arrival ${count(c.arrival + 1)}: ${c.valid ? `key ${c.key}${c.seq !== undefined ? `, seq ${c.seq}` : ''}` : 'invalid record'}, line ${c.line}`
          : s.position >= s.end
            ? 'End of input'
            : 'Before the first arrival',
      }),
      el('p', {
        class: 'ss-muted',
        text: `${count(s.counts.delivered)} delivered · ${count(s.counts.gaps)} ${noun(s.counts.gaps, 'gap')} (${count(s.counts.lost)} lost) · ${count(s.counts.duplicates)} ${noun(s.counts.duplicates, 'duplicate')}${s.counts.conflicts ? ` (${count(s.counts.conflicts)} conflicting)` : ''} · ${count(s.counts.late)} late${s.counts.reordered ? ` · ${count(s.counts.reordered)} reordered` : ''} · ${count(s.keysHolding)} ${noun(s.keysHolding, 'key')} holding`,
      }),
    );
    if (!s.keys.length) return;
    const rows = s.keys.map((k) => {
      // Runs, not numbers: a start window holds dozens in a row ("7100–7167 (68)").
      const held = k.heldRuns.length
        ? k.heldRuns.map(([from, to]) => missingRange(from, to)).join(', ') + (k.heldMore ? ', …' : '') + (k.heldCount > 1 ? ` (${count(k.heldCount)})` : '')
        : '—';
      return el('tr', {}, [
        el('th', { text: displayKey(k.key), attrs: { scope: 'row' } }),
        el('td', { text: k.expected !== undefined ? String(k.expected) : k.startsAt !== undefined ? 'starting' : '—' }),
        el('td', { text: held, title: `${count(k.heldCount)} held` }),
        el('td', { text: k.gap ? missingRange(k.gap.from, k.gap.to) : '—' }),
        el('td', { text: k.gap ? duration(k.gap.waitedMs) : '—' }),
      ]);
    });
    p.append(
      el('table', { class: 'ss-props ss-state-table' }, [
        el('thead', {}, [
          el(
            'tr',
            {},
            ['Key', 'Expected', 'Held', 'Open gap', 'Waited'].map((h) => el('th', { text: h, attrs: { scope: 'col' } })),
          ),
        ]),
        el('tbody', {}, rows),
      ]),
    );
  }
}
