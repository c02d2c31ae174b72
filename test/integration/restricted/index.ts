// The entry point of the Restricted Mode run (scripts/vscode-host/run-suite.mjs --restricted):
// the workbench opens its folder untrusted, and only the tests beside this file run.
import { runFiles } from '../index';

export async function run(): Promise<void> {
  await runFiles(__dirname, () => true);
}
