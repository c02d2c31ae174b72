/** `seqscope mcp`: registers the command; the MCP SDK is loaded only when it runs. */
import { Command } from 'commander';
import { Readable, Writable } from 'node:stream';

declare const SEQSCOPE_VERSION: string;

export function registerMcpCommand(
  program: Command,
  io: { stdout: Writable; stderr: Writable; stdin?: unknown },
  run: (p: Promise<number>) => Promise<void>,
): void {
  program
    .command('mcp')
    .description(
      'Serve the inspection tools (summarize_capture, list_findings, find_messages) to an MCP client over standard input and output; no network listener.',
    )
    .addHelpText(
      'after',
      `
A client starts it and names capture files in each call. In VS Code, .vscode/mcp.json:
  {"servers": {"seqscope": {"type": "stdio", "command": "seqscope", "args": ["mcp"]}}}
More in docs/agents.md.`,
    )
    .action(() =>
      run(
        (async () => {
          const { serveMcp } = await import('./mcpServer');
          await serveMcp(typeof SEQSCOPE_VERSION === 'string' ? SEQSCOPE_VERSION : 'dev', {
            stdin: process.stdin as Readable,
            stdout: io.stdout,
            stderr: io.stderr,
          });
          return 0;
        })(),
      ),
    );
}
