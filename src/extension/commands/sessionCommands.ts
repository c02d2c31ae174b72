/** Sessions and their views: the timeline, closing, the tree's items, key order, the log. */
import * as vscode from 'vscode';
import { InputError } from '../../core/util/inputError';
import { isKeyOrder, KEY_ORDERS, KeyOrder } from '../../core/trace/keyOrder';
import { toRecord } from '../../core/capture/captureRecord';
import { withDecoded } from '../../timeline/decodedPayload';
import { log } from '../log';
import { pickKeyOrder } from '../pickers/keyOrderPicker';
import { EventNode, LoadMoreNode, RangeNode } from '../sessionsTree';
import { rangeEvent, rangeLabel } from '../sessionsTreeCompare';
import { setKeyOrderSetting } from '../settings';
import { CommandContext, sessionFrom } from './context';
import { Handlers } from './registry';
import { SessionViews } from './sessionViews';

type SessionCommandId =
  | 'seqscope.timeline.show'
  | 'seqscope.session.close'
  | 'seqscope.session.closeAll'
  | 'seqscope.timeline.reveal'
  | 'seqscope.tree.copyMessage'
  | 'seqscope.keys.sort'
  | 'seqscope.tree.loadMore'
  | 'seqscope.log.show';

export function sessionCommands(ctx: CommandContext, views: SessionViews): Handlers<SessionCommandId> {
  const { manager, tree } = ctx;
  return {
    'seqscope.timeline.show': (arg?: unknown) => {
      const s = manager.all.length ? sessionFrom(manager, arg) : undefined;
      views.showTimeline(s);
    },

    'seqscope.session.close': (arg?: unknown) => manager.close(sessionFrom(manager, arg)),
    'seqscope.session.closeAll': () => manager.closeAll(),

    'seqscope.timeline.reveal': (node?: EventNode | RangeNode) => {
      if (node instanceof RangeNode) return revealRange(node, views);
      if (!(node instanceof EventNode)) return;
      views.showTimeline(node.session).reveal(node.session, node.event.id);
    },

    'seqscope.tree.copyMessage': async (node?: EventNode) => {
      if (!(node instanceof EventNode) || node.event.arrival === undefined) return;
      const { session } = node;
      const text = await session.files.readText(node.event.arrival);
      if (text === undefined) throw new Error('the record cannot be read back from its file');
      let out = text;
      let line: unknown;
      try {
        line = JSON.parse(text);
      } catch {
        // An invalid record is copied as it is.
      }
      if (line !== undefined) {
        // With the record its schema decodes (or why it does not match it), as the JSONL export writes it.
        const rm = toRecord(line);
        out = JSON.stringify(typeof rm === 'string' ? line : withDecoded(line as Record<string, unknown>, rm, session.options.schemas), null, 2);
      }
      await vscode.env.clipboard.writeText(out);
      vscode.window.setStatusBarMessage('SeqScope: message copied', 2000);
    },

    'seqscope.keys.sort': async (order?: unknown) => {
      let v: KeyOrder | undefined;
      if (order !== undefined) {
        if (!isKeyOrder(order)) throw new InputError(`unknown key order ${JSON.stringify(order)}: use ${KEY_ORDERS.join(', ')}`);
        v = order;
      } else {
        v = await pickKeyOrder(manager.keyOrder);
        if (!v) return undefined;
      }
      // A setting (seqscope.keyOrder): every session follows it, now and when opened later.
      await setKeyOrderSetting(v, (order) => (manager.keyOrder = order));
      return manager.keyOrder;
    },

    'seqscope.tree.loadMore': (node?: LoadMoreNode) => {
      if (node instanceof LoadMoreNode) tree.loadMore(node);
    },

    'seqscope.log.show': () => log().show(),
  };
}

/** A comparison's missed range, shown in the timeline: the gap over it, else the other side's copy of its first number. */
function revealRange(node: RangeNode, views: SessionViews): void {
  const id = rangeEvent(node);
  const panel = views.showTimeline(node.session);
  if (id !== undefined) panel.reveal(node.session, id);
  else
    vscode.window.setStatusBarMessage(
      `SeqScope: ${rangeLabel(node.range)} has no number to show in the timeline (compared by messageId): its rows are in the comparison's export`,
      5000,
    );
}
