/**
 * Pub/Sub resource names, checked locally before any call: a typo should be a clear error at
 * once, not a NOT_FOUND (or, against some servers, INVALID_ARGUMENT) after a round trip.
 * Rules from Google's resource-name reference: a project id is 6–30 lowercase letters, digits and
 * hyphens, starting with a letter and not ending with a hyphen (legacy domain-scoped ids
 * "example.com:proj" too); a topic or subscription id is 3–255 characters of letters, digits and
 * `-_.~+%`, starting with a letter and not with "goog".
 */
import { PubsubError } from './pubsubErrors';

export type ResourceKind = 'topics' | 'subscriptions' | 'snapshots';

export interface ResourceName {
  readonly project: string;
  readonly kind: ResourceKind;
  readonly id: string;
  /** `projects/P/<kind>/ID`. */
  readonly path: string;
}

const PROJECT = /^(?:[a-z][a-z0-9.-]{0,61}[a-z0-9]:)?[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
const RESOURCE_ID = /^[A-Za-z][A-Za-z0-9\-_.~+%]{2,254}$/;
const FULL = /^projects\/([^/]+)\/(topics|subscriptions|snapshots)\/([^/]+)$/;

const SINGULAR: Record<ResourceKind, string> = { topics: 'topic', subscriptions: 'subscription', snapshots: 'snapshot' };

/** Why a project id is not valid, or undefined. */
export function projectProblem(project: string): string | undefined {
  if (PROJECT.test(project)) return undefined;
  return `"${project}" is not a valid project id (6–30 lowercase letters, digits and hyphens, starting with a letter)`;
}

/** Why a topic/subscription/snapshot id is not valid, or undefined. */
export function resourceIdProblem(kind: ResourceKind, id: string): string | undefined {
  const what = SINGULAR[kind];
  if (id.toLowerCase().startsWith('goog')) return `"${id}" is not a valid ${what} id: ids may not start with "goog"`;
  if (!RESOURCE_ID.test(id)) {
    return `"${id}" is not a valid ${what} id (3–255 letters, digits and -_.~+%, starting with a letter)`;
  }
  return undefined;
}

/**
 * Parses `projects/P/<kind>/ID`, or a bare `ID` in `defaultProject`. Throws PubsubError
 * ('invalid-name') naming what is wrong.
 */
export function parseResourceName(kind: ResourceKind, text: string, defaultProject?: string): ResourceName {
  const what = SINGULAR[kind];
  const trimmed = text.trim();
  let project: string;
  let id: string;
  const full = FULL.exec(trimmed);
  if (full) {
    if (full[2] !== kind) {
      throw new PubsubError('invalid-name', `"${trimmed}" names a ${SINGULAR[full[2] as ResourceKind]}, not a ${what}`, `give projects/PROJECT/${kind}/ID`);
    }
    project = full[1];
    id = full[3];
  } else if (trimmed.includes('/')) {
    throw new PubsubError('invalid-name', `"${trimmed}" is not a ${what} name`, `give projects/PROJECT/${kind}/ID or a bare ${what} id`);
  } else {
    if (!defaultProject) {
      throw new PubsubError(
        'no-project',
        `no project for ${what} "${trimmed}"`,
        `give projects/PROJECT/${kind}/${trimmed}, or set a project (--project, seqscope.pubsub.projectId, PUBSUB_PROJECT_ID)`,
      );
    }
    project = defaultProject;
    id = trimmed;
  }
  const bad = projectProblem(project) ?? resourceIdProblem(kind, id);
  if (bad) throw new PubsubError('invalid-name', bad, `check the ${what} name`);
  return { project, kind, id, path: `projects/${project}/${kind}/${id}` };
}
