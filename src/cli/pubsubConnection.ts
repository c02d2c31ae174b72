/**
 * What the live Pub/Sub commands share: the Pub/Sub layer, loaded only when one of them runs, the
 * connection flags, and the signals that stop a live command.
 */
import { Command } from 'commander';
import type * as PubsubLayer from '../pubsub';

export interface ConnectionFlags {
  project?: string;
  emulatorHost?: string;
}

/** The Pub/Sub layer (dist/pubsub.js once bundled), with the client library in it. */
export function loadLayer(): Promise<typeof PubsubLayer> {
  return import('../pubsub');
}

/** Adds --project and --emulator-host to a command. */
export function addConnectionOptions(cmd: Command): Command {
  return cmd
    .option('--project <id>', 'Google Cloud project for bare names (default: PUBSUB_PROJECT_ID, GOOGLE_CLOUD_PROJECT, else the gcloud/ADC default)')
    .option('--emulator-host <host:port>', 'use the Pub/Sub emulator there (default: PUBSUB_EMULATOR_HOST)');
}

/** A connection to the project or emulator the flags name. */
export async function openConnection(layer: typeof PubsubLayer, flags: ConnectionFlags): Promise<PubsubLayer.PubsubConnection> {
  return layer.connect({ projectId: flags.project, emulatorHost: flags.emulatorHost });
}

/** Resolves on SIGINT/SIGTERM (the normal way to stop a recording), with a way to stop listening. */
export function onInterrupt(): { signal: AbortSignal; dispose(): void } {
  const ac = new AbortController();
  const stop = () => ac.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    signal: ac.signal,
    dispose() {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}
