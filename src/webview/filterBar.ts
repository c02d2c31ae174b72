/**
 * The filter bar: keys, kinds, a sequence range and an attribute equality. Applying sends
 * `setFilter`; the host answers `filter` with the filter it applied and a new overview, and only
 * then does the app re-request pages (so pages never mix two filters).
 */
import type { SeqBits } from '../core/sequencer/serial';
import { numberRangeProblem } from '../core/trace/traceFilter';
import type { KindName, TimelineFilter } from '../shared/protocol';
import type { CompareKind } from '../shared/timelineModel';
import { checkbox, multiSelect, setFieldProblem, textButton, textField, VscodeCheckbox, VscodeMultiSelect, VscodeTextfield } from './controls';
import { clear, el } from './dom';
import { displayKey, keyLabel, NO_KEY_LABEL } from '../core/trace/keyLabel';

const KINDS: NonNullable<TimelineFilter['kinds']> = ['message', 'gap', 'duplicate', 'late', 'reordered', 'reset', 'invalid'];
/** A comparison's range marks, with their names in the bar (shown for a comparison session only). */
const COMPARED: [CompareKind, string][] = [
  ['onlyA', 'only A'],
  ['onlyB', 'only B'],
  ['lostBoth', 'lost in both'],
];
/** Above this many keys a list is unusable, even one narrowed by typing: type names instead. */
const SELECT_MAX_KEYS = 200;

export class FilterBar {
  readonly root: HTMLFormElement;
  private readonly keysBox: HTMLElement;
  private keySelect: VscodeMultiSelect | undefined;
  private keyText: VscodeTextfield | undefined;
  private readonly kinds = new Map<KindName, VscodeCheckbox>();
  private readonly seqFrom: VscodeTextfield;
  private readonly seqTo: VscodeTextfield;
  private readonly attrName: VscodeTextfield;
  private readonly attrValue: VscodeTextfield;
  private readonly attrBox: HTMLElement;
  private readonly seqBox: HTMLElement;
  /** The range's problem, under its fields, as VS Code shows an input's validation message. */
  private readonly seqProblem: HTMLElement;
  /** The session's number width: ranges are checked against it as the user types (the CLI and the tree's filter use the same rule). */
  private seqBits: SeqBits | undefined;
  /** The filter last shown (as JSON), so a live update that carries it again leaves the fields alone. */
  private shown: string | undefined;

  constructor(private readonly apply: (f: TimelineFilter) => void) {
    this.keysBox = el('div', { class: 'ss-field' });
    const kindBox = el('fieldset', { class: 'ss-field ss-kinds' }, [el('legend', { text: 'Kinds' })]);
    for (const k of KINDS) {
      const cb = checkbox(k, `kind-${k}`, true);
      this.kinds.set(k, cb);
      kindBox.append(cb);
    }
    for (const [k, label] of COMPARED) {
      const cb = checkbox(label, `kind-${k}`, true);
      cb.hidden = true;
      this.kinds.set(k, cb);
      kindBox.append(cb);
    }
    this.seqFrom = textField('Sequence from', { name: 'seqFrom', type: 'number', placeholder: 'from' });
    this.seqTo = textField('Sequence to', { name: 'seqTo', type: 'number', placeholder: 'to' });
    for (const f of [this.seqFrom, this.seqTo]) f.classList.add('ss-num');
    this.attrName = textField('Attribute name', { name: 'attrName', placeholder: 'attribute' });
    this.attrValue = textField('Attribute value', { name: 'attrValue', placeholder: 'value' });
    this.attrBox = el('div', { class: 'ss-field' }, [el('span', { class: 'ss-label', text: 'Attribute' }), this.attrName, '=', this.attrValue]);
    // Spoken when it appears (the fields' own names cannot point at it across their shadow roots).
    this.seqProblem = el('div', { class: 'ss-field-problem', attrs: { role: 'alert', hidden: true } });
    this.root = el('form', { class: 'ss-filters', attrs: { 'aria-label': 'Filter the timeline', hidden: true, novalidate: true } }, [
      this.keysBox,
      kindBox,
      (this.seqBox = el('div', { class: 'ss-field ss-seq' }, [
        el('span', { class: 'ss-label', text: 'Sequence' }),
        el('span', { class: 'ss-seq-fields' }, [this.seqFrom, '–', this.seqTo, this.seqProblem]),
      ])),
      this.attrBox,
      el('div', { class: 'ss-field ss-actions' }, [
        // A form-associated submit button: the form submits, and the submit handler checks the fields.
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
    for (const f of [this.seqFrom, this.seqTo]) f.addEventListener('input', () => this.checkRange());
    // Enter in a text field or on a check box applies: the components submit the form themselves.
    // Enter in the keys' list is the list's (it opens it, or ticks the key under the cursor).
    // The form does not validate itself (`novalidate`: the browser's bubble is not VS Code's
    // look): a field with a problem, shown under it as the user types, keeps the filter from
    // applying and gets the focus.
    this.root.addEventListener('submit', (e) => {
      e.preventDefault();
      const refused = this.textFields().find((f) => !f.checkValidity());
      if (refused) {
        refused.focus();
        return;
      }
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
  setup(keyNames: readonly string[], attributes: boolean, seqBits?: SeqBits, comparison = false): void {
    this.seqBits = seqBits;
    for (const [k] of COMPARED) (this.kinds.get(k) as VscodeCheckbox).hidden = !comparison;
    const wraps = seqBits === 16 || seqBits === 32;
    const top = wraps ? 2 ** seqBits - 1 : undefined;
    for (const f of [this.seqFrom, this.seqTo]) {
      f.min = 0;
      f.max = top;
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
      this.keySelect = multiSelect(
        'Keys to show (none selected: all)',
        keyNames.map((k) => ({ value: k, text: displayKey(k) })),
        (n) => (n === 0 ? 'All keys' : n === 1 ? '1 key' : `${n} keys`),
      );
      this.keySelect.classList.add('ss-keys');
      this.keySelect.title = 'Type to narrow the list; none ticked shows every key';
      this.keysBox.append(this.keySelect);
    } else {
      this.keyText = textField('Keys to show, comma-separated (empty: all)', { placeholder: 'all keys (comma-separated)' });
      this.keyText.classList.add('ss-keys');
      this.keysBox.append(this.keyText);
    }
    this.attrBox.hidden = !attributes;
  }

  /**
   * Shows a filter (the one the host applied). `unlessSame`: a live session's update, which
   * carries the filter shown already: the fields stay as they are (what the user is typing in them too).
   */
  set(f: TimelineFilter, unlessSame = false): void {
    const shown = JSON.stringify(f);
    if (unlessSame && shown === this.shown) return;
    this.shown = shown;
    const keys = new Set(f.keys ?? []);
    // Keys the session does not have are left out.
    if (this.keySelect) this.keySelect.value = [...keys];
    if (this.keyText) this.keyText.value = [...keys].map(keyLabel).join(', ');
    const kinds = f.kinds?.length ? new Set<KindName>(f.kinds) : undefined;
    const compared = f.compared ? new Set<KindName>(f.compared) : undefined;
    for (const [k, cb] of this.kinds) cb.checked = COMPARED.some(([c]) => c === k) ? !compared || compared.has(k) : !kinds || kinds.has(k);
    this.seqFrom.value = f.seqFrom !== undefined ? String(f.seqFrom) : '';
    this.seqTo.value = f.seqTo !== undefined ? String(f.seqTo) : '';
    this.checkRange();
    this.attrName.value = f.attribute?.name ?? '';
    this.attrValue.value = f.attribute?.value ?? '';
  }

  /**
   * Marks the range invalid, with the reason under it, when the width rules it out (the CLI's and
   * the tree's rule), or a field holds no whole number from 0 up (the fields' own check).
   */
  private checkRange(): void {
    const range = () => (this.seqBits === undefined ? undefined : numberRangeProblem(numberIn(this.seqFrom), numberIn(this.seqTo), this.seqBits));
    void Promise.all([this.seqFrom.updateComplete, setFieldProblem(this.seqTo, () => range() ?? '')]).then(() => {
      // The inner inputs' own validity: always current (the elements copy it on their next check).
      const message = range() ?? [this.seqFrom, this.seqTo].map((f) => f.wrappedElement).find((i) => !i.validity.valid)?.validationMessage ?? '';
      this.seqProblem.textContent = message;
      this.seqProblem.hidden = message === '';
    });
  }

  private textFields(): VscodeTextfield[] {
    return [this.keyText, this.seqFrom, this.seqTo, ...(this.attrBox.hidden ? [] : [this.attrName, this.attrValue])].filter(
      (f): f is VscodeTextfield => f !== undefined,
    );
  }

  read(): TimelineFilter {
    const f: TimelineFilter = {};
    const keys = this.keySelect
      ? this.keySelect.value
      : (this.keyText?.value ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          // The empty key is written as it is shown.
          .map((s) => (s === NO_KEY_LABEL ? '' : s));
    if (keys.length) f.keys = keys;
    const kinds = KINDS.filter((k) => this.kinds.get(k)?.checked);
    if (kinds.length < KINDS.length) f.kinds = kinds;
    const compared = COMPARED.map(([k]) => k).filter((k) => this.kinds.get(k)?.checked);
    if (compared.length < COMPARED.length) f.compared = compared;
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
    if (f.compared)
      parts.push(
        `marks: ${
          COMPARED.filter(([k]) => f.compared?.includes(k))
            .map(([, label]) => label)
            .join(', ') || 'none'
        }`,
      );
    if (f.seqFrom !== undefined || f.seqTo !== undefined) parts.push(`seq ${f.seqFrom ?? '…'}–${f.seqTo ?? '…'}`);
    if (f.attribute) parts.push(`${f.attribute.name}=${f.attribute.value}`);
    return parts.join(' · ');
  }
}

/** The number typed in a field, or undefined when it is empty or not a number. */
function numberIn(input: VscodeTextfield): number | undefined {
  const text = input.value.trim();
  return text !== '' && Number.isFinite(Number(text)) ? Number(text) : undefined;
}
