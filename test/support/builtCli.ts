/**
 * Builds the `seqscope` CLI (its scanning threads' entry, and the Pub/Sub bundle it loads at run time) from the same esbuild
 * targets as dist/, into a folder of the test's own, so a concurrent `npm run build` cannot
 * change the binary under test. Returns the path of cli.js.
 */
import { build, BuildOptions } from 'esbuild';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');

export async function buildCli(dir: string, { withPubsub = false } = {}): Promise<string> {
  const { targets } = (await import(join(root, 'esbuild.js'))) as { targets: BuildOptions[] };
  // The scanning threads' entry beside cli.js, as in dist/: replays read on all cores.
  const wanted = ['src/cli/main.ts', 'src/timeline/node/scanWorker.ts', ...(withPubsub ? ['src/pubsub/index.ts'] : [])];
  const names: Record<string, string> = { 'src/cli/main.ts': 'cli.js', 'src/timeline/node/scanWorker.ts': 'scanWorker.js', 'src/pubsub/index.ts': 'pubsub.js' };
  await Promise.all(
    wanted.map((entry) => {
      const target = targets.find((t) => (t.entryPoints as string[])[0] === entry)!;
      const outfile = join(dir, names[entry]);
      return build({ ...target, absWorkingDir: root, outfile, bundle: true, logLevel: 'silent' });
    }),
  );
  return join(dir, 'cli.js');
}
