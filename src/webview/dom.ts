/**
 * A small element builder. Text goes in with textContent only: session data (key names,
 * attributes, payloads, messageIds) is never parsed as markup, whatever it contains.
 */

type Attrs = Record<string, string | number | boolean | undefined>;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { class?: string; text?: string; attrs?: Attrs; title?: string } = {},
  children: (Node | string | undefined | false)[] = [],
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (props.class) e.className = props.class;
  if (props.text !== undefined) e.textContent = props.text;
  if (props.title !== undefined) e.title = props.title;
  if (props.attrs) {
    for (const [k, v] of Object.entries(props.attrs)) {
      if (v === undefined || v === false) continue;
      // No event-handler attributes, ever (and the CSP would refuse them anyway).
      if (/^on/i.test(k)) throw new Error(`refusing to set ${k}`);
      e.setAttribute(k, v === true ? '' : String(v));
    }
  }
  for (const c of children) {
    if (c === undefined || c === false) continue;
    e.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
  return e;
}

/**
 * Sets a node's text only when it changes: writing the same text still replaces the node's text,
 * and the browser lays the page out again (a live session's header is told its text ten times a
 * second).
 */
export function setText(node: Node, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

export function clear(e: Element): void {
  e.replaceChildren();
}
