/**
 * Publishing a capture into a topic, with VS Code's progress (cancellable): each key in capture
 * order, keys side by side; a key whose publish fails pauses alone and the user decides (Resume
 * Key / Stop Publishing). Into a topic bound to a schema, every payload is re-encoded with the
 * topic's schema, the whole capture checked before anything is sent. The result is said and logged.
 */
import * as vscode from 'vscode';
import { CaptureReader } from '../core/capture/captureReader';
import type { SchemaSet } from '../core/schema/schemaSet';
import type * as PubsubLayer from '../pubsub';
import { log } from './log';
import { schemasFromSettings } from './schemaSettings';

export async function publishWithProgress(
  layer: typeof PubsubLayer,
  conn: PubsubLayer.PubsubConnection,
  file: string,
  topic: PubsubLayer.ResourceName,
  pace: string,
): Promise<PubsubLayer.PublishResult | undefined> {
  layer.paceSpeed(pace);
  const sources = await schemasFromSettings(file);
  const schema = await layer.topicSchema(conn, topic);
  const encode = schema && (await checkAgainstSchema(layer, conn, file, topic, schema, sources));
  if (schema && !encode) return undefined;
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
        encode,
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
    (schema ? `, re-encoded with ${schema.definition.source} (${schema.encoding})` : '') +
    (result.cancelled ? `; stopped with ${result.unpublished} not published` : '') +
    (result.skipped ? `; ${result.skipped} skipped` : '');
  log().info(msg);
  if (result.cancelled) void vscode.window.showWarningMessage(msg);
  else void vscode.window.showInformationMessage(msg);
  return result;
}

/**
 * A topic bound to a schema: the whole capture checked against it first (cancellable), so that a
 * message that does not fit refuses the run (an InputError naming lines and fields) before
 * anything is published. Undefined when the user cancelled the check.
 */
async function checkAgainstSchema(
  layer: typeof PubsubLayer,
  conn: PubsubLayer.PubsubConnection,
  file: string,
  topic: PubsubLayer.ResourceName,
  schema: PubsubLayer.TopicSchema,
  sources: SchemaSet | undefined,
): Promise<PubsubLayer.MessageEncoding | undefined> {
  const name = file.split(/[\\/]/).pop();
  return vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: `SeqScope: checking ${name} against ${schema.definition.source} (${schema.encoding})`,
      cancellable: true,
    },
    async (_progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        const encode = await layer.prepareSchemaPublish(conn, topic, schema, sources, file, {
          signal: abort.signal,
          warn: (line) => log().warn(line),
        });
        return abort.signal.aborted ? undefined : encode;
      } finally {
        sub.dispose();
      }
    },
  );
}
