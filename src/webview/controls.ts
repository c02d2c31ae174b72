/**
 * Controls in VS Code's look: the web components of @vscode-elements/elements (lit; their styles
 * are constructable stylesheets, which a strict CSP allows) with codicons. Only the components
 * used are imported, so the bundle carries only those. Each control has an accessible name; the
 * components put it on their focusable inner element.
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-multi-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import '@vscode-elements/elements/dist/vscode-toolbar-button/index.js';
import type { VscodeButton } from '@vscode-elements/elements/dist/vscode-button/vscode-button.js';
import type { VscodeCheckbox } from '@vscode-elements/elements/dist/vscode-checkbox/vscode-checkbox.js';
import type { VscodeMultiSelect } from '@vscode-elements/elements/dist/vscode-multi-select/vscode-multi-select.js';
import type { VscodeSingleSelect } from '@vscode-elements/elements/dist/vscode-single-select/vscode-single-select.js';
import type { VscodeTextfield } from '@vscode-elements/elements/dist/vscode-textfield/vscode-textfield.js';
import type { VscodeToolbarButton } from '@vscode-elements/elements/dist/vscode-toolbar-button/vscode-toolbar-button.js';
import { el } from './dom';

export type { VscodeButton, VscodeCheckbox, VscodeMultiSelect, VscodeSingleSelect, VscodeTextfield, VscodeToolbarButton };

/**
 * A toolbar button: a codicon (its name, e.g. `zoom-in`; '' for none) and optionally a short
 * text, with its label spoken and shown as its tooltip.
 */
export function iconButton(icon: string, label: string, onClick: () => void, text?: string): VscodeToolbarButton {
  const b = el('vscode-toolbar-button', { title: label, ...(text !== undefined ? { text } : {}) });
  b.icon = icon;
  b.label = label;
  b.addEventListener('click', () => onClick());
  return b;
}

/** An icon button that stays pressed while on (a switch to assistive technology). */
export function toggleButton(icon: string, label: string, onClick: () => void): VscodeToolbarButton {
  const b = iconButton(icon, label, onClick);
  // The component flips `checked` on a click; the app then sets it to what holds.
  b.toggleable = true;
  return b;
}

/** Changes an icon button's icon and label together (Play / Pause). */
export function relabel(b: VscodeToolbarButton, icon: string, label: string): void {
  if (b.icon !== icon) b.icon = icon;
  if (b.label !== label) {
    b.label = label;
    b.title = label;
  }
}

/** A text button (primary, or secondary), optionally with a codicon before the text. */
export function textButton(
  text: string,
  label: string,
  onClick: () => void,
  opts: { icon?: string; secondary?: boolean; submit?: boolean } = {},
): VscodeButton {
  const b = el('vscode-button', { text, title: label, attrs: { 'aria-label': label } });
  if (opts.icon) b.icon = opts.icon;
  b.secondary = opts.secondary ?? false;
  if (opts.submit) b.type = 'submit';
  b.addEventListener('click', () => onClick());
  return b;
}

export interface Choice {
  value: string;
  text: string;
  description?: string;
}

/** A drop-down (one choice); `change` fires when the user picks one. */
export function singleSelect(label: string, choices: readonly Choice[]): VscodeSingleSelect {
  const s = el(
    'vscode-single-select',
    { title: label },
    choices.map((c) => el('vscode-option', { text: c.text, attrs: { value: c.value, description: c.description } })),
  );
  s.label = label;
  return s;
}

/** A check box with its visible label (also its accessible name). */
export function checkbox(label: string, name: string, checked: boolean): VscodeCheckbox {
  const c = el('vscode-checkbox', {});
  c.label = label;
  c.name = name;
  c.checked = checked;
  return c;
}

/**
 * A text field (or a number field), its label spoken (on the inner input) and its placeholder
 * shown. In a form, Enter in it submits the form (the component asks the form itself).
 */
export function textField(label: string, opts: { name?: string; type?: 'text' | 'number'; placeholder?: string } = {}): VscodeTextfield {
  const f = el('vscode-textfield', {});
  f.label = label;
  f.type = opts.type ?? 'text';
  if (opts.name) f.name = opts.name;
  if (opts.placeholder) f.placeholder = opts.placeholder;
  if (f.type === 'number') f.step = 1;
  return f;
}

/**
 * Gives a field a problem of its own, or takes it away (''), as `setCustomValidity` does on an
 * input: the field then matches `:invalid`, its `validationMessage` says why, and
 * `checkValidity()` refuses. vscode-textfield 2.5.1 has no `setCustomValidity`: it copies its
 * inner input's validity onto itself, so the problem goes on the inner input (once drawn) and is
 * copied across. `problem` is asked when the field is ready, so it reads the field as it is then.
 */
export async function setFieldProblem(f: VscodeTextfield, problem: () => string): Promise<void> {
  await f.updateComplete;
  f.wrappedElement.setCustomValidity(problem());
  // Copies the inner input's validity (it fires "invalid", which nothing here listens for, when there is a problem).
  f.checkValidity();
}

/**
 * A drop-down of check boxes with a filter: typing in it narrows the list (VS Code's look for a
 * few hundred choices at most). `value` holds the values chosen. The face says what is chosen in
 * the caller's words (`face(n)`, e.g. "All keys" for none), where the component would read
 * "0 Selected".
 */
export function multiSelect(label: string, choices: readonly Choice[], face?: (selected: number) => string): VscodeMultiSelect {
  const s = el('vscode-multi-select', {});
  s.label = label;
  s.combobox = true;
  s.filter = 'contains';
  // Labels go in as data (lit renders them as text), never as markup.
  s.options = choices.map((c) => ({ label: c.text, value: c.value, description: c.description ?? '', selected: false, disabled: false }));
  if (face) sayChosen(s, face);
  return s;
}

/**
 * vscode-multi-select 2.5.1 draws its face's badge with a private `_renderLabel` and a fixed
 * "N Selected". This instance draws its own badge (a node lit renders as it is, the same classes)
 * instead; where a later version has no such method, the component's own wording stays.
 */
function sayChosen(s: VscodeMultiSelect, face: (selected: number) => string): void {
  const own = s as unknown as { _renderLabel?: () => unknown };
  if (typeof own._renderLabel !== 'function') return;
  own._renderLabel = () => {
    const n = s.selectedIndexes.length;
    return el('span', { class: n === 0 ? 'select-face-badge no-item' : 'select-face-badge', text: face(n) });
  };
}
