/**
 * Publishing a capture into a topic, with VS Code's progress (cancellable): each key in capture
 * order, keys side by side; a key whose publish fails pauses alone and the user decides (Resume
 * Key / Stop Publishing). The result is said and logged.
 */
import * as vscode from 'vscode';
import { CaptureReader } from '../core/capture/captureReader';
import type * as PubsubLayer from '../pubsub';
import { log } from './log';

export async function publishWithProgress(
  layer: typeof PubsubLayer,
  conn: PubsubLayer.PubsubConnection,
  file: string,
  topic: PubsubLayer.ResourceName,
  pace: string,
): Promise<PubsubLayer.PublishResult> {
  layer.paceSpeed(pace);
  await layer.checkTopic(conn, topic);
  const reader = new CaptureReader(file);
  await reader.open();
  const sink = layer.openTopicSink(conn, topic);
  const name = file.split(/[\\/]/).pop();
  let finished = false;
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `SeqScope: publishing ${name} to ${topic.id}`, cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      let shown = 0;
      const publisher: PubsubLayer.CapturePublisher = new layer.CapturePublisher({
        sink,
        pace: pace as PubsubLayer.Pace,
        signal: abort.signal,
        onProgress: (p) => {
          const pct = reader.size ? (reader.bytesRead / reader.size) * 100 : 0;
          progress.report({ increment: pct - shown, message: `${p.published} published${p.paused.length ? ` · paused: ${p.paused.join(', ')}` : ''}` });
          shown = pct;
        },
        onPaused: (p) => {
          // Only this key waits; the user decides whether it goes on.
          const keyName = p.key === '' ? '(no ordering key)' : p.key;
          void vscode.window
            .showWarningMessage(
              `SeqScope: publishing key ${keyName} failed at line ${p.line} (${p.error.message}). The key is paused (${p.pending} waiting); other keys go on.`,
              'Resume Key',
              'Stop Publishing',
            )
            .then((pick) => {
              // Answered after the run ended (stopped, or done without this key): say so instead.
              if (pick && finished)
                void vscode.window.showInformationMessage(
                  `SeqScope: publishing ${name} to ${topic.id} has ended: nothing to ${pick === 'Resume Key' ? 'resume' : 'stop'}.`,
                );
              else if (pick === 'Resume Key') publisher.resume(p.key);
              else if (pick === 'Stop Publishing') abort.abort();
            });
        },
      });
      try {
        return await publisher.run(reader.batches({ signal: abort.signal }));
      } finally {
        finished = true;
        sub.dispose();
        await sink.flush();
        await reader.close();
      }
    },
  );
  const msg =
    `SeqScope: published ${result.published} of ${result.read} message(s) (${result.keys} keys) to ${topic.id}` +
    (result.cancelled ? `; stopped with ${result.unpublished} not published` : '') +
    (result.skipped ? `; ${result.skipped} skipped` : '');
  log().info(msg);
  if (result.cancelled) void vscode.window.showWarningMessage(msg);
  else void vscode.window.showInformationMessage(msg);
  return result;
}
