/** Live Pub/Sub: attach, tap, recordings, leftover taps, publishing, detach, replay from time, re-tap (see PubsubFlows). */
import { AttachArgs, LiveResult, TapArgs } from '../liveArgs';
import { PubsubFlows } from '../pubsubFlows';
import { SessionManager } from '../sessionManager';
import { liveSessionFrom } from './context';
import { Handlers } from './registry';
import { SessionViews } from './sessionViews';

type LiveCommandId =
  | 'seqscope.pubsub.attach'
  | 'seqscope.pubsub.tapTopic'
  | 'seqscope.pubsub.deleteLeftoverTaps'
  | 'seqscope.pubsub.recordings'
  | 'seqscope.pubsub.publishCapture'
  | 'seqscope.live.detach'
  | 'seqscope.live.replayFromTime'
  | 'seqscope.live.retap';

export function liveCommands(pubsub: PubsubFlows, manager: SessionManager, views: SessionViews): Handlers<LiveCommandId> {
  /** A live session started: shown in the Sessions view, wherever the user was (an editor keeps the keyboard). */
  const shown = async (started: Promise<LiveResult | undefined>) => {
    const result = await started;
    const s = result && manager.get(result.id);
    if (s) await views.revealInSessionsView(s, { keepFocus: true });
    return result;
  };
  return {
    'seqscope.pubsub.attach': (args?: AttachArgs) => shown(pubsub.attach(args)),
    'seqscope.pubsub.tapTopic': (args?: TapArgs) => shown(pubsub.tapTopic(args)),
    'seqscope.pubsub.deleteLeftoverTaps': (args?: { all?: boolean }) => pubsub.deleteLeftoverTaps(args),
    'seqscope.pubsub.recordings': () => pubsub.recordings(),
    'seqscope.pubsub.publishCapture': (args?: { file?: string; topic?: string; pace?: string }) => pubsub.publishCapture(args),
    'seqscope.live.detach': (arg?: unknown) => pubsub.detach(liveSessionFrom(manager, arg)),
    'seqscope.live.replayFromTime': (arg?: unknown, when?: string) => pubsub.replayFromTime(liveSessionFrom(manager, arg), when),
    'seqscope.live.retap': (arg?: unknown) => pubsub.retap(liveSessionFrom(manager, arg)),
  };
}
