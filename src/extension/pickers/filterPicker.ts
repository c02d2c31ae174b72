/** Filter…: what a session's views show — keys, kinds, a sequence range, an attribute value. */
import * as vscode from 'vscode';
import { describeFilter, numberRangeProblem, TraceFilterSpec } from '../../core/trace/traceFilter';
import { orderKeys } from '../../core/trace/keyOrder';
import { Session } from '../session';
import { pickKeys } from './keyPicker';

export async function pickFilter(s: Session): Promise<TraceFilterSpec | undefined> {
  const current = s.filter;
  type Item = vscode.QuickPickItem & { what: 'keys' | 'kinds' | 'seq' | 'attribute' | 'clear' };
  const what = await vscode.window.showQuickPick<Item>(
    [
      { label: 'Keys…', description: current.keys?.join(', '), what: 'keys' },
      { label: 'Kinds…', description: current.kinds?.join(', '), what: 'kinds' },
      {
        label: 'Sequence range…',
        description: current.seqFrom !== undefined || current.seqTo !== undefined ? `${current.seqFrom ?? ''}–${current.seqTo ?? ''}` : undefined,
        what: 'seq',
      },
      { label: 'Attribute value…', description: current.attribute ? `${current.attribute.name}=${current.attribute.value}` : undefined, what: 'attribute' },
      { label: 'Clear filter', what: 'clear' },
    ],
    { title: `Filter ${s.title} (now: ${describeFilter(current)})` },
  );
  if (!what) return undefined;
  switch (what.what) {
    case 'clear':
      return {};
    case 'keys': {
      // Listed in the key order the tree and the timeline use.
      const order = s.keyOrder === 'arrival' ? undefined : orderKeys(s.lanes, s.keyOrder, (l) => l.name);
      const keys = await pickKeys({ names: s.data.keyNames, describe: (i) => `${s.lanes[i].received} received`, current: current.keys, order });
      return keys ? { ...current, keys } : undefined;
    }
    case 'kinds': {
      const kinds = ['message', 'gap', 'duplicate', 'late', 'reordered', 'invalid'] as const;
      const picked = await vscode.window.showQuickPick(
        kinds.map((k) => ({ label: k, picked: current.kinds?.includes(k) })),
        { canPickMany: true, title: 'Show these kinds of event' },
      );
      return picked ? { ...current, kinds: picked.map((p) => p.label as (typeof kinds)[number]) } : undefined;
    }
    case 'seq': {
      const bits = s.options.seqBits;
      const top = 2 ** bits - 1;
      const text = await vscode.window.showInputBox({
        title: 'Sequence range',
        prompt:
          bits === 64
            ? 'from-to, inclusive (either side may be empty)'
            : `from-to, inclusive (either side may be empty); ${bits}-bit numbers wrap, so from above to runs through the wrap, e.g. ${top - 5}-5`,
        placeHolder: '100-200',
        validateInput: (v) => {
          const m = /^\s*(\d*)\s*-\s*(\d*)\s*$/.exec(v);
          if (!m) return 'Write it as from-to, e.g. 100-200';
          const [from, to] = [m[1], m[2]].map((x) => (x ? Number(x) : undefined));
          return numberRangeProblem(from, to, bits);
        },
      });
      if (text === undefined) return undefined;
      const [a, b] = text.split('-').map((x) => x.trim());
      return { ...current, seqFrom: a ? Number(a) : undefined, seqTo: b ? Number(b) : undefined };
    }
    case 'attribute': {
      const text = await vscode.window.showInputBox({
        title: 'Attribute value',
        prompt: 'name=value (the captures are read again to find the matching records)',
        placeHolder: 'SecurityID=12345',
        validateInput: (v) => (/^[^=]+=.*$/.test(v) ? undefined : 'Write it as name=value'),
      });
      if (text === undefined) return undefined;
      const i = text.indexOf('=');
      return { ...current, attribute: { name: text.slice(0, i).trim(), value: text.slice(i + 1) } };
    }
  }
}
