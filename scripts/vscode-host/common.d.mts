// Types for common.mjs, for the TypeScript tests.
export const ROOT: string;
export const CODE_SERVER_VERSION: string;
export const VSCODE_VERSION: string;
export const CACHE_DIR: string;
export const SERVER_DIR: string;
export const SERVER_MAIN: string;
export const MARKER: string;
export const CHROMIUM: string;
export const APT_PACKAGES: string;
export function log(msg: string): void;
export function missingPrerequisites(): string[];
export function prerequisiteHint(missing: string[]): string;
export function installedMarker(): { codeServer: string; vscode: string; node: string; nodeModules: string; installedAt: string; seconds: number } | null;
export function devExtensionPath(): string;
export function countTests(dir: string): number;
