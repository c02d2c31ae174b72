/** Sessions and their views: the timeline, closing, the tree's items, key order, the log. */
import * as vscode from 'vscode';
import { InputError } from '../../core/util/inputError';
import { isKeyOrder, KEY_ORDERS, KeyOrder } from '../../core/trace/keyOrder';
import { log } from '../log';
import { pickKeyOrder } from '../pickers/keyOrderPicker';
import { EventNode, LoadMoreNode } from '../sessionsTree';
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

    'seqscope.timeline.reveal': (node?: EventNode) => {
      if (!(node instanceof EventNode)) return;
      views.showTimeline(node.session).reveal(node.session, node.event.id);
    },

    'seqscope.tree.copyMessage': async (node?: EventNode) => {
      if (!(node instanceof EventNode) || node.event.arrival === undefined) return;
      const text = await node.session.files.readText(node.event.arrival);
      if (text === undefined) throw new Error('the record cannot be read back from its file');
      let out = text;
      try {
        out = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        // An invalid record is copied as it is.
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
