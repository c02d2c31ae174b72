/**
 * Commands' titles as the Command Palette shows them (package.json `contributes.commands`): what a
 * message names a command by — users know "Replay: Play", not `seqscope.replay.play`. No vscode
 * import, so plain Node can test it against package.json.
 */
import { COMMAND_IDS, CommandId } from './commandIds';

/** The part of an extension's package.json this reads. */
interface Manifest {
  readonly contributes?: { readonly commands?: readonly { readonly command: string; readonly title: string }[] };
}

/** Every command's title, read from the extension's package.json; throws if one is missing (a packaging bug). */
export function commandTitles(packageJSON: unknown): (id: CommandId) => string {
  const declared = (packageJSON as Manifest).contributes?.commands ?? [];
  const titles = new Map(declared.map((c) => [c.command, c.title]));
  const missing = COMMAND_IDS.filter((id) => !titles.get(id));
  if (missing.length) throw new RangeError(`package.json gives no title for ${missing.join(', ')}`);
  return (id) => titles.get(id)!;
}
