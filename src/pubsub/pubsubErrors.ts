/**
 * What can go wrong talking to Pub/Sub, in words a user can act on. Every failure of the
 * `src/pubsub` layer is a PubsubError with a kind (for code), a message (what happened, naming
 * the resource) and a next step (what to do about it); the CLI prints both on one line, the
 * extension shows the next step as the notification's hint.
 */
import { redactSecrets } from '../core/util/secrets';

export type PubsubErrorKind =
  | 'invalid-name'
  | 'no-project'
  | 'not-found'
  | 'already-exists'
  | 'permission-denied'
  | 'unauthenticated'
  | 'emulator-down'
  | 'unavailable'
  | 'timeout'
  | 'unsupported'
  | 'failed';

export class PubsubError extends Error {
  constructor(
    readonly kind: PubsubErrorKind,
    message: string,
    readonly nextStep: string,
    readonly grpcCode?: number,
  ) {
    super(message);
    this.name = 'PubsubError';
  }

  /** "message: next step", for one-line output. */
  get oneLine(): string {
    return `${this.message}: ${this.nextStep}`;
  }
}

/** gRPC status codes we tell apart (google.rpc.Code). */
export const GRPC = {
  CANCELLED: 1,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  FAILED_PRECONDITION: 9,
  UNIMPLEMENTED: 12,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

export interface ErrorContext {
  /** What was being done: "open subscription projects/p/subscriptions/s". */
  readonly action: string;
  /** The resource, for NOT_FOUND: "subscription projects/p/subscriptions/s". */
  readonly resource?: string;
  /** Set when talking to an emulator: an unreachable server is then "emulator not running". */
  readonly emulatorHost?: string;
  /** What is known to be missing, for UNIMPLEMENTED. */
  readonly unsupportedWhy?: string;
}

/** Turns whatever the client library threw into a PubsubError (returned as is when it is one). */
export function explainError(e: unknown, ctx: ErrorContext): PubsubError {
  if (e instanceof PubsubError) return e;
  const err = e as { code?: unknown; message?: unknown; details?: unknown };
  const code = typeof err?.code === 'number' ? err.code : undefined;
  // What the library says may quote a key file (see redactSecrets).
  const raw = redactSecrets(String(err?.details || err?.message || e));
  const resource = ctx.resource ?? 'the resource';
  switch (code) {
    case GRPC.NOT_FOUND:
      return new PubsubError('not-found', `cannot ${ctx.action}: ${resource} does not exist`, 'check the name and the project', code);
    case GRPC.ALREADY_EXISTS:
      return new PubsubError('already-exists', `cannot ${ctx.action}: ${resource} already exists`, 'choose another name', code);
    case GRPC.PERMISSION_DENIED:
      return new PubsubError(
        'permission-denied',
        `cannot ${ctx.action}: permission denied (${firstLine(raw)})`,
        'check the project id and that your account has a Pub/Sub role on it (roles/pubsub.viewer to list, roles/pubsub.subscriber to attach, roles/pubsub.editor to tap or publish)',
        code,
      );
    case GRPC.UNAUTHENTICATED:
      return unauthenticated(ctx, raw, code);
    case GRPC.UNIMPLEMENTED:
      return new PubsubError(
        'unsupported',
        `cannot ${ctx.action}: ${ctx.emulatorHost ? 'the Pub/Sub emulator does not implement this' : 'the server does not implement this'}${ctx.unsupportedWhy ? ` (${ctx.unsupportedWhy})` : ''}`,
        ctx.emulatorHost ? 'try it against Google Cloud' : 'check the endpoint',
        code,
      );
    case GRPC.INVALID_ARGUMENT:
      return new PubsubError('invalid-name', `cannot ${ctx.action}: ${firstLine(raw)}`, 'check the names and options given', code);
    case GRPC.DEADLINE_EXCEEDED:
    case GRPC.UNAVAILABLE:
      if (ctx.emulatorHost) return emulatorDown(ctx.emulatorHost, ctx.action);
      return new PubsubError(
        code === GRPC.UNAVAILABLE ? 'unavailable' : 'timeout',
        `cannot ${ctx.action}: Pub/Sub did not answer (${firstLine(raw)})`,
        'check the network connection (and a proxy, if any), then try again',
        code,
      );
  }
  if (/default credentials|could not load the default|invalid_grant|reauth/i.test(raw)) return unauthenticated(ctx, raw, code);
  if (/unable to detect a project id|MissingProjectId/i.test(raw)) {
    return new PubsubError(
      'no-project',
      `cannot ${ctx.action}: no Google Cloud project is set`,
      'set seqscope.pubsub.projectId (or --project, or PUBSUB_PROJECT_ID)',
      code,
    );
  }
  if (/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|No connection established/i.test(raw) && ctx.emulatorHost) return emulatorDown(ctx.emulatorHost, ctx.action);
  return new PubsubError('failed', `cannot ${ctx.action}: ${firstLine(raw)}`, 'see the SeqScope log for details', code);
}

export function emulatorDown(host: string, action: string): PubsubError {
  return new PubsubError(
    'emulator-down',
    `cannot ${action}: the Pub/Sub emulator at ${host} is not running`,
    'start it (gcloud beta emulators pubsub start --host-port=' + host + ') or clear PUBSUB_EMULATOR_HOST / seqscope.pubsub.emulatorHost to use Google Cloud',
    GRPC.UNAVAILABLE,
  );
}

function unauthenticated(ctx: ErrorContext, raw: string, code: number | undefined): PubsubError {
  return new PubsubError(
    'unauthenticated',
    `cannot ${ctx.action}: no usable Google credentials (${firstLine(raw)})`,
    'run `gcloud auth application-default login`, or set PUBSUB_EMULATOR_HOST to use the emulator',
    code,
  );
}

function firstLine(s: string): string {
  const line = s.split('\n')[0].trim();
  return line.length > 200 ? line.slice(0, 197) + '…' : line;
}
