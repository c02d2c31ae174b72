/**
 * One place that makes a @google-cloud/pubsub client: loads the library lazily (it is large; the
 * extension must activate without it), decides emulator vs Google Cloud, resolves the project,
 * and fails fast and clearly where the library would retry for minutes or crash the process.
 *
 * Emulator: `emulatorHost` (setting `seqscope.pubsub.emulatorHost`, flag `--emulator-host`) or
 * PUBSUB_EMULATOR_HOST. Google Cloud: Application Default Credentials; no credential is ever
 * logged or copied anywhere by SeqScope.
 */
import type { CallOptions, ClientConfig, PubSub } from '@google-cloud/pubsub';
import { readFile } from 'node:fs/promises';
import { emulatorDown, explainError, PubsubError } from './pubsubErrors';
import { projectProblem } from './resourceNames';

export interface ConnectionSettings {
  /** Project id; else PUBSUB_PROJECT_ID / GOOGLE_CLOUD_PROJECT, else the ADC/gcloud default. */
  readonly projectId?: string;
  /** host:port of an emulator; else PUBSUB_EMULATOR_HOST; empty = Google Cloud. */
  readonly emulatorHost?: string;
  /** Environment to read (tests pass their own). */
  readonly env?: NodeJS.ProcessEnv;
}

export interface PubsubConnection {
  readonly client: PubSub;
  readonly projectId: string;
  /** Set when talking to an emulator. */
  readonly emulatorHost?: string;
  /** Options for admin calls: a short deadline, so a wrong endpoint fails in seconds. */
  readonly adminCall: CallOptions;
  close(): Promise<void>;
}

/** Admin calls give up after this long (the library's default retries run for minutes). */
export const ADMIN_TIMEOUT_MS = 8000;
/**
 * How long the emulator gets to answer its liveness GET. A stopped emulator refuses at once;
 * this is for one that is there but slow: on a loaded 2-core machine (load 20) its JVM took over
 * a second, and a recorder restarted after a crash gave up on a running emulator.
 */
const PROBE_TIMEOUT_MS = 3000;

type PubsubModule = typeof import('@google-cloud/pubsub');
let loaded: Promise<PubsubModule> | undefined;

/** The library, loaded on first use only: it adds seconds to activation otherwise. */
export function loadPubsub(): Promise<PubsubModule> {
  loaded ??= import('@google-cloud/pubsub');
  return loaded;
}

/**
 * The options the connection's PubSub client was made with, for one of the library's generated
 * (v1) clients on the same endpoint and credentials. The port comes back as a string; the
 * generated clients take a number.
 */
export async function generatedClientOptions(client: PubSub): Promise<Omit<ClientConfig, 'port'> & { port?: number }> {
  const config = await client.getClientConfig();
  return { ...config, port: config.port === undefined ? undefined : Number(config.port) };
}

export function resolveEmulatorHost(settings: ConnectionSettings): string | undefined {
  const env = settings.env ?? process.env;
  const host = (settings.emulatorHost ?? '').trim() || (env.PUBSUB_EMULATOR_HOST ?? '').trim();
  return host ? host.replace(/^https?:\/\//, '').replace(/\/+$/, '') : undefined;
}

/**
 * Opens a client. Throws PubsubError: `emulator-down` at once when an emulator is
 * configured but not answering, `no-project` / `invalid-name` for the project, `unauthenticated`
 * without usable Google credentials.
 */
export async function connect(settings: ConnectionSettings = {}): Promise<PubsubConnection> {
  const env = settings.env ?? process.env;
  const emulatorHost = resolveEmulatorHost(settings);
  let projectId = (settings.projectId ?? '').trim() || (env.PUBSUB_PROJECT_ID ?? '').trim() || (env.GOOGLE_CLOUD_PROJECT ?? '').trim() || undefined;
  if (emulatorHost) {
    await probeEmulator(emulatorHost);
    // The emulator takes any project, but the client without one shells out to gcloud and then
    // throws asynchronously, which would take the extension host down with it.
    if (!projectId) {
      throw new PubsubError(
        'no-project',
        `no project id for the emulator at ${emulatorHost}`,
        'set seqscope.pubsub.projectId (or --project, or PUBSUB_PROJECT_ID) to the project your emulator topics live in',
      );
    }
    // No metadata-server probe (DNS + 169.254.169.254) for an emulator connection.
    process.env.METADATA_SERVER_DETECTION ??= 'none';
  }
  if (projectId) {
    const bad = projectProblem(projectId);
    if (bad) throw new PubsubError('invalid-name', bad, 'check seqscope.pubsub.projectId (or --project)');
  }
  if (!emulatorHost) await checkKeyFile(env);
  const { PubSub } = await loadPubsub();
  const client = new PubSub({
    ...(projectId ? { projectId } : {}),
    // apiEndpoint puts the client in emulator mode (plain-text gRPC) without touching the
    // process environment. Never pass universeDomain: it turns emulator mode off.
    ...(emulatorHost ? { apiEndpoint: emulatorHost, emulatorMode: true } : {}),
  });
  if (!projectId) {
    try {
      projectId = await withTimeout(
        client.getClientConfig().then(() => client.projectId),
        ADMIN_TIMEOUT_MS,
        'find the default project',
      );
    } catch (e) {
      await client.close().catch(() => undefined);
      throw explainError(e, { action: 'find the default Google Cloud project' });
    }
    if (!projectId || projectId === '{{projectId}}') {
      await client.close().catch(() => undefined);
      throw new PubsubError(
        'no-project',
        'no Google Cloud project is set',
        'set seqscope.pubsub.projectId (or --project, or run `gcloud config set project PROJECT`)',
      );
    }
  }
  return {
    client,
    projectId,
    emulatorHost,
    adminCall: { timeout: ADMIN_TIMEOUT_MS },
    close: () => client.close(),
  };
}

/**
 * The key file GOOGLE_APPLICATION_CREDENTIALS names, checked before the client library reads it:
 * on a file that is not JSON the library throws from a stream handler, which no caller can catch
 * (the CLI and the extension host died of it), and its error quotes the file up to the fault —
 * with Node's crash printer, the private key. Neither the path nor the content is ever repeated.
 */
async function checkKeyFile(env: NodeJS.ProcessEnv): Promise<void> {
  const path = (env.GOOGLE_APPLICATION_CREDENTIALS ?? '').trim();
  if (!path) return;
  const next =
    'point GOOGLE_APPLICATION_CREDENTIALS at a valid key file (or unset it and run `gcloud auth application-default login`), or set PUBSUB_EMULATOR_HOST to use the emulator';
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    const why = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : 'cannot be read';
    throw new PubsubError('unauthenticated', `the credentials file GOOGLE_APPLICATION_CREDENTIALS names ${why}`, next);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not the parser's message: V8 quotes the text around the fault.
    throw new PubsubError('unauthenticated', 'the credentials file GOOGLE_APPLICATION_CREDENTIALS names is not valid JSON', next);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new PubsubError('unauthenticated', 'the credentials file GOOGLE_APPLICATION_CREDENTIALS names is not a JSON key file', next);
  }
}

/** Resolves when the emulator answers GET / ("Ok"); throws `emulator-down` otherwise. */
export async function probeEmulator(host: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<void> {
  try {
    const res = await fetch(`http://${host}/`, { signal: AbortSignal.timeout(timeoutMs) });
    if (res.ok) return;
  } catch {
    /* refused, unreachable or too slow: all "not running" to the user */
  }
  throw emulatorDown(host, 'connect');
}

export async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`${what} took longer than ${ms / 1000} s`), { code: 4 })), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
