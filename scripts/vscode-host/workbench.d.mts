// Types for workbench.mjs, for the TypeScript e2e tests.
import type { BrowserContext, Frame, Page } from 'playwright-core';

export const BROWSER_ARGS: string[];

export interface HostServer {
  port: number;
  origin: string;
  logFile: string;
  pid: number;
  stop(): Promise<void>;
}

export interface Workbench {
  page: Page;
  context: BrowserContext;
  server: HostServer;
  url: string;
  /** The temp folder holding the server's data, its log and the browser profile. */
  dir: string;
  /** Closes the browser, kills the server's process group, removes `dir` (unless `keep`). */
  close(): Promise<void>;
}

export interface OpenWorkbenchOptions {
  /** The folder the workbench opens (on this machine). */
  folder?: string;
  /** Default: the repository root. */
  extensionDevelopmentPath?: string;
  /** A compiled mocha suite index for the extension host; omit for e2e. */
  extensionTestsPath?: string;
  onLog?: (level: string, message: unknown) => void;
  onExit?: (code: number) => void;
  /** How long to wait for `.monaco-workbench` (default 120 s). */
  loadTimeoutMs?: number;
  /** Print the browser console (default: SEQSCOPE_HOST_VERBOSE). */
  verbose?: boolean;
  /** Keep the temp folder after close (to read the server log). */
  keep?: boolean;
  /**
   * Start the server with --enable-smoke-test-driver (default true). With it the workbench
   * refuses modal dialogs; the e2e-modal tier turns it off to see them.
   */
  smokeTestDriver?: boolean;
  /** Open the folder in Restricted Mode: workspace trust on, the folder not trusted (default false). */
  restricted?: boolean;
  /** The browser's viewport (default 1400×900). */
  viewport?: { width: number; height: number };
}

export function freePort(): Promise<number>;
export function startServer(options: {
  dir: string;
  env?: Record<string, string>;
  readyTimeoutMs?: number;
  smokeTestDriver?: boolean;
  restricted?: boolean;
}): Promise<HostServer>;
export function launchBrowser(profileDir: string, options?: { viewport?: { width: number; height: number } }): Promise<BrowserContext>;
export function workbenchUrl(
  origin: string,
  options?: { folder?: string; extensionDevelopmentPath?: string; extensionTestsPath?: string; openFile?: string },
): string;
export function openWorkbench(options?: OpenWorkbenchOptions): Promise<Workbench>;
/** Resolves to the time (epoch ms) the command's row was clicked. */
export function runCommand(page: Page, title: string, options?: { timeoutMs?: number }): Promise<number>;
export function treeRows(page: Page, containerId: string): Promise<string[]>;
export function findWebviewFrame(page: Page, selector: string, options?: { timeoutMs?: number }): Promise<Frame>;
export function screenshot(page: Page, path: string): Promise<string>;
