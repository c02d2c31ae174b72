/**
 * Builds the `seqscope` CLI (and the Pub/Sub bundle it loads at run time) from the same esbuild
 * targets as dist/, into a folder of the test's own, so a concurrent `npm run build` cannot
 * change the binary under test. Returns the path of cli.js.
 */
import { build, BuildOptions } from 'esbuild';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

export async function buildCli(dir: string, { withPubsub = false } = {}): Promise<string> {
  const { targets } = (await import(join(root, 'esbuild.js'))) as { targets: BuildOptions[] };
  const wanted = withPubsub ? ['src/cli/main.ts', 'src/pubsub/index.ts'] : ['src/cli/main.ts'];
  await Promise.all(
    wanted.map((entry) => {
      const target = targets.find((t) => (t.entryPoints as string[])[0] === entry)!;
      const outfile = join(dir, entry === 'src/cli/main.ts' ? 'cli.js' : 'pubsub.js');
      return build({ ...target, absWorkingDir: root, outfile, bundle: true, logLevel: 'silent' });
    }),
  );
  return join(dir, 'cli.js');
}
