/**
 * The language model tools' input schemas, as package.json's `languageModelTools` declares them
 * (a unit test holds the two equal). No `vscode` here, so plain Node reads them.
 */
import { COMPARE_SIDES } from '../../core/inspect/captureTools';
import { FINDINGS_PROPERTIES, JsonSchema, MESSAGES_PROPERTIES, SEQUENCING_PROPERTIES } from '../../core/inspect/inspectArgs';

const SESSION = {
  session: { type: 'string', description: 'The session: its id or title as seqscope_list_sessions gives them (default: the active session).' },
} as const;

function schema(properties: Record<string, unknown>, required: string[] = []): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

export const SESSION_TOOL_SCHEMAS = {
  seqscope_list_sessions: schema({}),
  seqscope_summarize_session: schema({ ...SESSION, forKey: { type: 'string', description: 'Summarise only this key (exact).' } }),
  seqscope_list_findings: schema({ ...SESSION, ...FINDINGS_PROPERTIES }),
  seqscope_find_messages: schema({ ...SESSION, ...MESSAGES_PROPERTIES }),
  seqscope_open_capture: schema(
    {
      paths: {
        type: 'array',
        items: { type: 'string' },
        minItems: 1,
        description:
          "Capture files (JSON Lines of Pub/Sub ReceivedMessage records, Cloud Storage Avro, BigQuery rows; plain or .gz). Several are merged by their clock. Relative paths are read from the workspace's first folder.",
      },
      ...SEQUENCING_PROPERTIES,
    },
    ['paths'],
  ),
  seqscope_compare_captures: schema({ ...COMPARE_SIDES, ...SEQUENCING_PROPERTIES }, ['a', 'b']),
} as const satisfies Record<string, JsonSchema>;

export type SessionToolName = keyof typeof SESSION_TOOL_SCHEMAS;
