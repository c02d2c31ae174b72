/**
 * `seqscope mcp`: the inspection tools (src/core/inspect/captureTools.ts) served over the Model
 * Context Protocol on standard input and output, with the official SDK's low-level server (the
 * tools' JSON Schemas are shared with the extension, so no schema library is needed). No network
 * listener. A bad input answers with a tool error (`isError`) that says what to fix; an
 * unexpected error too, marked internal, and the server keeps serving.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Readable, Writable } from 'node:stream';
import { CaptureError } from '../core/capture/captureReader';
import { InspectionCache } from '../core/inspect/captureInspection';
import { captureTools } from '../core/inspect/captureTools';
import { isInputError } from '../core/util/inputError';
import { redactSecrets } from '../core/util/secrets';

export interface McpIo {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

/** Serves until the client closes standard input; resolves then. */
export async function serveMcp(version: string, io: McpIo, cwd = process.cwd()): Promise<void> {
  const tools = captureTools(cwd);
  const cache = new InspectionCache();
  const server = new Server(
    { name: 'seqscope', version },
    {
      capabilities: { tools: {} },
      instructions:
        'SeqScope inspects captures of ordered message streams (Google Pub/Sub, CME-style feeds): per key, gaps (lost numbers), duplicates, late messages. Start with summarize_capture, then list_findings or find_messages.',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: tools.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema as { type: 'object' } })),
  }));
  // Input ended (the client is gone, or piped its requests and closed): answer what was asked, then stop.
  let inFlight = 0;
  let ended = false;
  const closeWhenIdle = () => ended && inFlight === 0 && void server.close();
  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const tool = tools.find((t) => t.name === req.params.name);
    if (!tool) return failure(`unknown tool "${req.params.name}": use ${tools.map((t) => t.name).join(', ')}`);
    inFlight++;
    try {
      return { content: [{ type: 'text', text: await tool.run(req.params.arguments ?? {}, cache, extra.signal) }] };
    } catch (e) {
      if (isInputError(e) || e instanceof CaptureError) return failure((e as Error).message);
      io.stderr.write(`seqscope mcp: ${tool.name}: ${redactSecrets(String((e as Error).stack ?? e))}\n`);
      return failure(`internal error in ${tool.name}: ${redactSecrets((e as Error).message ?? String(e))} (a bug: please report it)`);
    } finally {
      inFlight--;
      // After the answer is sent.
      setImmediate(closeWhenIdle);
    }
  });
  const transport = new StdioServerTransport(io.stdin, io.stdout);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  io.stdin.on('end', () => {
    ended = true;
    closeWhenIdle();
  });
  await server.connect(transport);
  await closed;
}

function failure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
