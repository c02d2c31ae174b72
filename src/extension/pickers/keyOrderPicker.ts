/** Sort Keys…: how the Sessions tree and the timeline list keys. */
import * as vscode from 'vscode';
import { KEY_ORDER_DETAILS, KEY_ORDER_LABELS, KEY_ORDERS, KeyOrder } from '../../core/trace/keyOrder';

export async function pickKeyOrder(current: KeyOrder): Promise<KeyOrder | undefined> {
  const pick = await vscode.window.showQuickPick(
    KEY_ORDERS.map((o) => ({
      label: KEY_ORDER_LABELS[o][0].toUpperCase() + KEY_ORDER_LABELS[o].slice(1),
      description: o === current ? 'current' : undefined,
      detail: KEY_ORDER_DETAILS[o],
      order: o,
    })),
    {
      title: 'List keys — in the Sessions tree and the timeline',
      placeHolder: `Now: ${KEY_ORDER_LABELS[current]}`,
      // Opened from the Command Palette just after the timeline's Keys menu changed the
      // order, the picker could close by itself (an e2e run caught it; measured, other
      // pickers then closed 1–2 times in 12): while the setting is being written, the
      // webview, which had the focus, takes it back. Escape still closes it.
      ignoreFocusOut: true,
    },
  );
  return pick?.order;
}
