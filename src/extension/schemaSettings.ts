/**
 * `seqscope.schemas` applied where captures open and live sessions start: its files are read
 * once per open, asynchronously (the sequencing settings are read synchronously and often), and
 * their definitions go into the options the session loads with. A bad entry is an InputError
 * naming the setting (reportError offers it).
 */
import { readFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { SequencingOptions } from '../core/sequencer/sequencingOptions';
import { schemaSetFromSetting } from '../core/schema/schemaSetting';
import type { SchemaEntries } from '../core/schema/presetSchemas';
import type { SchemaSet } from '../core/schema/schemaSet';

/**
 * The options with the setting's schemas and the preset's (`presetSchemas`; the setting's entries
 * replace them name by name), unless they carry schemas already. Relative paths resolve against
 * the workspace folder of `near` (a capture), else the first workspace folder, else the folder of
 * `near`. A preset's files, like the setting, are read once the workspace is trusted.
 */
export async function withSchemasFromSettings(options: SequencingOptions, near?: string): Promise<SequencingOptions> {
  if (options.schemas) return options;
  const schemas = await schemasFromSettings(near, options.presetSchemas);
  return schemas ? { ...options, schemas } : options;
}

/** The setting's schemas and the preset's, read and compiled (paths as withSchemasFromSettings resolves them); undefined when they name none. */
export async function schemasFromSettings(near?: string, presetSchemas?: SchemaEntries): Promise<SchemaSet | undefined> {
  const value = vscode.workspace.getConfiguration('seqscope').get<unknown>('schemas');
  const preset = vscode.workspace.isTrusted ? presetSchemas : undefined;
  const none = value === undefined || value === null || (typeof value === 'object' && Object.keys(value).length === 0);
  if (none && preset === undefined) return undefined;
  const base = baseFolder(near);
  return schemaSetFromSetting(
    none ? undefined : value,
    {
      resolve: (p) => (base === undefined ? p : path.resolve(base, p)),
      read: (p) => readFile(p, 'utf8'),
    },
    preset,
  );
}

function baseFolder(near: string | undefined): string | undefined {
  const own = near === undefined ? undefined : vscode.workspace.getWorkspaceFolder(vscode.Uri.file(near));
  const folder = own ?? vscode.workspace.workspaceFolders?.[0];
  if (folder?.uri.scheme === 'file') return folder.uri.fsPath;
  return near === undefined ? undefined : path.dirname(near);
}
