/**
 * The filter bar: keys, kinds, a sequence range and an attribute equality. Applying sends
 * `setFilter`; the host answers `filter` with the filter it applied and a new overview, and only
 * then does the app re-request pages (so pages never mix two filters).
 */
import type { SeqBits } from '../core/sequencer/serial';
import { numberRangeProblem } from '../core/trace/traceFilter';
import type { KindName, TimelineFilter } from '../shared/protocol';
import { checkbox, textButton, VscodeCheckbox } from './controls';
import { clear, el } from './dom';
import { displayKey, keyLabel, NO_KEY_LABEL } from '../core/trace/keyLabel';

const KINDS: KindName[] = ['message', 'gap', 'duplicate', 'late', 'invalid'];
/** Above this many keys a multi-select is unusable: type names instead. */
const SELECT_MAX_KEYS = 200;

export class FilterBar {
  readonly root: HTMLFormElement;
  private readonly keysBox: HTMLElement;
  private keySelect: HTMLSelectElement | undefined;
  private keyText: HTMLInputElement | undefined;
  private readonly kinds = new Map<KindName, VscodeCheckbox>();
  private readonly seqFrom: HTMLInputElement;
  private readonly seqTo: HTMLInputElement;
  private readonly attrName: HTMLInputElement;
  private readonly attrValue: HTMLInputElement;
  private readonly attrBox: HTMLElement;
  private readonly seqBox: HTMLElement;
  /** The session's number width: ranges are checked against it as the user types (the CLI and the tree's filter use the same rule). */
  private seqBits: SeqBits | undefined;

  constructor(private readonly apply: (f: TimelineFilter) => void) {
    this.keysBox = el('div', { class: 'ss-field' });
    const kindBox = el('fieldset', { class: 'ss-field ss-kinds' }, [el('legend', { text: 'Kinds' })]);
    for (const k of KINDS) {
      const cb = checkbox(k, `kind-${k}`, true);
      this.kinds.set(k, cb);
      kindBox.append(cb);
    }
    const num = (name: string, label: string) => el('input', { class: 'ss-input ss-num', attrs: { type: 'number', name, 'aria-label': label, placeholder: label === 'Sequence from' ? 'from' : 'to', step: 1 } });
    this.seqFrom = num('seqFrom', 'Sequence from');
    this.seqTo = num('seqTo', 'Sequence to');
    this.attrName = el('input', { class: 'ss-input', attrs: { type: 'text', name: 'attrName', 'aria-label': 'Attribute name', placeholder: 'attribute', spellcheck: 'false' } });
    this.attrValue = el('input', { class: 'ss-input', attrs: { type: 'text', name: 'attrValue', 'aria-label': 'Attribute value', placeholder: 'value', spellcheck: 'false' } });
    this.attrBox = el('div', { class: 'ss-field' }, [el('span', { class: 'ss-label', text: 'Attribute' }), this.attrName, '=', this.attrValue]);
    this.root = el('form', { class: 'ss-filters', attrs: { 'aria-label': 'Filter the timeline', hidden: true } }, [
      this.keysBox,
      kindBox,
      (this.seqBox = el('div', { class: 'ss-field' }, [el('span', { class: 'ss-label', text: 'Sequence' }), this.seqFrom, '–', this.seqTo])),
      this.attrBox,
      el('div', { class: 'ss-field ss-actions' }, [
        // A form-associated submit button: the form checks its fields, then submits.
        textButton('Apply', 'Apply the filter', () => {}, { submit: true }),
        textButton(
          'Clear',
          'Clear the filter',
          () => {
            this.set({});
            this.apply({});
          },
          { secondary: true },
        ),
      ]),
    ]);
    // The browser's own validation shows the message and keeps the form from submitting.
    for (const input of [this.seqFrom, this.seqTo]) input.addEventListener('input', () => this.checkRange());
    // Enter in a field applies, as a form's own submit button would (a web component is not one).
    this.root.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && e.target instanceof HTMLInputElement && e.target.type !== 'checkbox') {
        e.preventDefault();
        this.root.requestSubmit();
      }
    });
    this.root.addEventListener('submit', (e) => {
      e.preventDefault();
      this.apply(this.read());
    });
  }

  get visible(): boolean {
    return !this.root.hidden;
  }

  toggle(show = this.root.hidden): void {
    this.root.hidden = !show;
  }

  /**
   * Key choices; the attribute filter only where the host can index attributes (not standalone);
   * the number width, when known, for the range's check and hint.
   */
  setup(keyNames: readonly string[], attributes: boolean, seqBits?: SeqBits): void {
    this.seqBits = seqBits;
    const wraps = seqBits === 16 || seqBits === 32;
    const top = wraps ? 2 ** seqBits - 1 : undefined;
    for (const input of [this.seqFrom, this.seqTo]) {
      input.min = '0';
      if (top !== undefined) input.max = String(top);
      else input.removeAttribute('max');
    }
    this.seqBox.title =
      top !== undefined
        ? `Inclusive, 0–${top} (${seqBits}-bit numbers). A "from" above "to" runs through the wrap (e.g. ${top - 5}–5).`
        : seqBits === 64
          ? 'Inclusive. 64-bit numbers do not wrap: write the lower number first.'
          : 'Inclusive. With 16- or 32-bit numbers, a "from" above "to" runs through the wrap (e.g. 65530–5).';
    this.checkRange();
    clear(this.keysBox);
    this.keySelect = undefined;
    this.keyText = undefined;
    this.keysBox.append(el('span', { class: 'ss-label', text: 'Keys' }));
    if (keyNames.length <= SELECT_MAX_KEYS) {
      this.keySelect = el(
        'select',
        { class: 'ss-select', attrs: { multiple: true, size: Math.min(4, Math.max(2, keyNames.length)), 'aria-label': 'Keys to show (none selected: all)' } },
        keyNames.map((k) => el('option', { text: displayKey(k), attrs: { value: k } })),
      );
      this.keysBox.append(this.keySelect);
    } else {
      this.keyText = el('input', { class: 'ss-input', attrs: { type: 'text', 'aria-label': 'Keys to show, comma-separated (empty: all)', placeholder: 'all keys (comma-separated)' } });
      this.keysBox.append(this.keyText);
    }
    this.attrBox.hidden = !attributes;
  }

  /** Shows a filter (the one the host applied). */
  set(f: TimelineFilter): void {
    const keys = new Set(f.keys ?? []);
    if (this.keySelect) for (const o of this.keySelect.options) o.selected = keys.has(o.value);
    if (this.keyText) this.keyText.value = [...keys].map(keyLabel).join(', ');
    const kinds = f.kinds?.length ? new Set(f.kinds) : undefined;
    for (const [k, cb] of this.kinds) cb.checked = !kinds || kinds.has(k);
    this.seqFrom.value = f.seqFrom !== undefined ? String(f.seqFrom) : '';
    this.seqTo.value = f.seqTo !== undefined ? String(f.seqTo) : '';
    this.checkRange();
    this.attrName.value = f.attribute?.name ?? '';
    this.attrValue.value = f.attribute?.value ?? '';
  }

  /** Marks the range invalid, with the reason, when the width rules it out (the CLI's and the tree's rule). */
  private checkRange(): void {
    const problem = this.seqBits === undefined ? undefined : numberRangeProblem(numberIn(this.seqFrom), numberIn(this.seqTo), this.seqBits);
    this.seqTo.setCustomValidity(problem ?? '');
  }

  read(): TimelineFilter {
    const f: TimelineFilter = {};
    const keys = this.keySelect
      ? [...this.keySelect.selectedOptions].map((o) => o.value)
      : (this.keyText?.value ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          // The empty key is written as it is shown.
          .map((s) => (s === NO_KEY_LABEL ? '' : s));
    if (keys.length) f.keys = keys;
    const kinds = KINDS.filter((k) => this.kinds.get(k)?.checked);
    if (kinds.length < KINDS.length) f.kinds = kinds;
    const from = numberIn(this.seqFrom);
    const to = numberIn(this.seqTo);
    if (from !== undefined) f.seqFrom = from;
    if (to !== undefined) f.seqTo = to;
    if (!this.attrBox.hidden && this.attrName.value.trim()) f.attribute = { name: this.attrName.value.trim(), value: this.attrValue.value };
    return f;
  }

  /** "2 keys · gaps, duplicates · seq 100–200", for the toolbar when the bar is closed. */
  static describe(f: TimelineFilter): string {
    const parts: string[] = [];
    if (f.keys?.length) parts.push(f.keys.length === 1 ? `key ${f.keys[0]}` : `${f.keys.length} keys`);
    if (f.kinds?.length) parts.push(f.kinds.join(', '));
    if (f.seqFrom !== undefined || f.seqTo !== undefined) parts.push(`seq ${f.seqFrom ?? '…'}–${f.seqTo ?? '…'}`);
    if (f.attribute) parts.push(`${f.attribute.name}=${f.attribute.value}`);
    return parts.join(' · ');
  }
}

/** The number typed in a field, or undefined when it is empty or not a number. */
function numberIn(input: HTMLInputElement): number | undefined {
  const text = input.value.trim();
  return text !== '' && Number.isFinite(Number(text)) ? Number(text) : undefined;
}
