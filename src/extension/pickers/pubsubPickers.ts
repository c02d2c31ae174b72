/**
 * Picking what to watch or publish into on Pub/Sub: a subscription and how to read it, topics
 * (listed, or named by id or path), a topic to publish into; and, when a project lists nothing,
 * a message that leads somewhere (another project, the settings, another command).
 */
import * as vscode from 'vscode';
import type * as PubsubLayer from '../../pubsub';
import { runCommand } from '../commands/registry';
import type { CommandId } from '../commands/commandIds';
import type { TapArgs } from '../liveArgs';
import { type Connected, emulatorHostInUse } from '../pubsubService';

/** Runs `fn` on the connection under a progress notification titled `title` (listing, creating taps…). */
export type WithConnection = <T>(title: string, fn: (layer: typeof PubsubLayer, conn: PubsubLayer.PubsubConnection) => Promise<T>) => Promise<T>;

const TAP_INSTEAD = 'Tap the Topic Instead (recommended)';
const BY_PATH = 'Topics by Path…';
const CONSUME = 'Consume the Subscription';

/** A subscription of the project to watch (taps left out); undefined when there is none or the pick is cancelled. */
export async function pickSubscription({ layer, conn }: Connected, withConnection: WithConnection): Promise<PubsubLayer.SubscriptionInfo | undefined> {
  const subs = await withConnection(`listing subscriptions of ${conn.projectId}…`, () => layer.listSubscriptions(conn));
  const visible = subs.filter((s) => !layer.isTap(s));
  if (!visible.length) {
    void offerWayForward(
      `project ${conn.projectId} has no subscriptions (the project is seqscope.pubsub.projectId${emulatorHostInUse() ? `, on the emulator at ${emulatorHostInUse()}` : ''}). Tap a topic instead, or use another project?`,
      'seqscope.pubsub.attach',
      ['Tap Topic…', () => runCommand('seqscope.pubsub.tapTopic')],
    );
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    visible.map((s) => ({
      label: s.name.id,
      description: s.messageOrdering ? '$(list-ordered) message ordering on' : 'no message ordering',
      detail: `topic ${s.topic}${s.deadLetterTopic ? ` · dead-letter ${s.deadLetterTopic} (order is lost there)` : ''}`,
      info: s,
    })),
    { title: `Attach to a subscription of ${conn.projectId}`, placeHolder: 'Subscription to watch', matchOnDescription: true, matchOnDetail: true },
  );
  return pick?.info;
}

/** Consume `info`, or tap its topic instead (the modal question Attach asks); undefined: cancelled. */
export async function askAttachMode(info: PubsubLayer.SubscriptionInfo): Promise<'consume' | 'tap' | undefined> {
  const choice = await vscode.window.showWarningMessage(
    `Attaching to ${info.name.id} consumes it.`,
    {
      modal: true,
      detail:
        "SeqScope acks what it receives, so those messages are taken from the subscription's other consumers. " +
        "Tapping the topic instead creates a temporary subscription of SeqScope's own (ordered, self-expiring, deleted on detach) and leaves real consumers untouched.",
    },
    TAP_INSTEAD,
    CONSUME,
  );
  if (!choice) return undefined;
  return choice === CONSUME ? 'consume' : 'tap';
}

/** The project's topics, several at once, and a way to name others by path. */
export async function pickTopics(connected: Connected, withConnection: WithConnection): Promise<PubsubLayer.ResourceName[] | undefined> {
  const { layer, conn } = connected;
  const topics = await withConnection(`listing topics of ${conn.projectId}…`, () => layer.listTopics(conn));
  if (!topics.length) {
    void offerWayForward(
      `project ${conn.projectId} has no topics (the project is seqscope.pubsub.projectId${emulatorHostInUse() ? `, on the emulator at ${emulatorHostInUse()}` : ''}). Tap a topic of another project by its path, use another project, or create a topic first?`,
      'seqscope.pubsub.tapTopic',
      [BY_PATH, () => runCommand('seqscope.pubsub.tapTopic', { byPath: true } satisfies TapArgs)],
    );
    return undefined;
  }
  type Item = vscode.QuickPickItem & { name?: PubsubLayer.ResourceName };
  const items: Item[] = [
    ...topics.map((t) => ({ label: t.name.id, description: t.name.path, name: t.name })),
    { label: '', kind: vscode.QuickPickItemKind.Separator },
    { label: `$(edit) ${BY_PATH}`, description: 'projects/<project>/topics/<topic>: a topic of another project (CME Smart Stream)', alwaysShow: true },
  ];
  const picks = await vscode.window.showQuickPick(items, {
    title: `Tap topics of ${conn.projectId}`,
    placeHolder: 'Topics to tap into one session (each gets a tap of its own)',
    canPickMany: true,
    matchOnDescription: true,
  });
  if (!picks?.length) return undefined;
  const chosen = picks.flatMap((p) => (p.name ? [p.name] : []));
  if (picks.some((p) => !p.name)) {
    const more = await askTopicPaths(connected);
    if (!more) return undefined;
    chosen.push(...more);
  }
  return chosen;
}

/** Topic ids or full paths, comma-separated, checked as typed. */
export async function askTopicPaths({ layer, conn }: Connected): Promise<PubsubLayer.ResourceName[] | undefined> {
  const parse = (v: string) => layer.parseTopicList([v], conn.projectId);
  const text = await vscode.window.showInputBox({
    title: 'SeqScope: tap topics by name',
    prompt: `Topic ids of ${conn.projectId}, or full paths projects/<project>/topics/<topic> for another project's (CME Smart Stream: one topic per channel); several separated by commas`,
    placeHolder: 'projects/<project>/topics/<topic>, …',
    ignoreFocusOut: true,
    validateInput: (v) => {
      try {
        parse(v);
        return undefined;
      } catch (e) {
        const err = e as PubsubLayer.PubsubError;
        return err.nextStep ? `${err.message}: ${err.nextStep}` : err.message;
      }
    },
  });
  return text === undefined ? undefined : parse(text);
}

/** A topic to publish into (one). */
export async function pickTopic({ layer, conn }: Connected, withConnection: WithConnection, title: string): Promise<PubsubLayer.ResourceName | undefined> {
  const topics = await withConnection(`listing topics of ${conn.projectId}…`, () => layer.listTopics(conn));
  if (!topics.length) {
    void offerWayForward(
      `project ${conn.projectId} has no topics (the project is seqscope.pubsub.projectId${emulatorHostInUse() ? `, on the emulator at ${emulatorHostInUse()}` : ''}). Use another project, or create a topic first?`,
      undefined,
    );
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    topics.map((t) => ({ label: t.name.id, description: t.name.path, name: t.name })),
    { title: `${title} of ${conn.projectId}`, placeHolder: 'Topic' },
  );
  return pick?.name;
}

/**
 * A "no X" message that leads somewhere: another project (typed here, kept as
 * seqscope.pubsub.projectId, then `rerun` runs again), the settings, or `extra` (a label and
 * what it does). A wrong project id is the usual reason a project looks empty.
 */
async function offerWayForward(message: string, rerun: CommandId | undefined, extra?: [string, () => Thenable<unknown>]): Promise<void> {
  const USE = 'Use Another Project…';
  const SETTINGS = 'Open Settings';
  const pick = await vscode.window.showInformationMessage(`SeqScope: ${message}`, ...(extra ? [extra[0]] : []), USE, SETTINGS);
  if (pick === SETTINGS) await vscode.commands.executeCommand('workbench.action.openSettings', 'seqscope.pubsub.projectId');
  else if (extra && pick === extra[0]) await extra[1]();
  else if (pick === USE) {
    const c = vscode.workspace.getConfiguration('seqscope.pubsub');
    const project = await vscode.window.showInputBox({
      title: 'SeqScope: Google Cloud project',
      prompt: 'The project whose topics and subscriptions SeqScope lists (kept as seqscope.pubsub.projectId)',
      value: c.get<string>('projectId') ?? '',
      validateInput: (v) =>
        /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/.test(v.trim()) ? undefined : 'A project id: 6–30 lowercase letters, digits and hyphens, starting with a letter',
    });
    if (!project) return;
    const inWorkspace = c.inspect<string>('projectId')?.workspaceValue !== undefined;
    await c.update(
      'projectId',
      project.trim(),
      inWorkspace || vscode.workspace.workspaceFolders?.length ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global,
    );
    if (rerun) await runCommand(rerun);
  }
}
