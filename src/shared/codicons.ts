/**
 * Codicons (`@vscode/codicons`, the font VS Code draws its icons with) for the timeline page.
 * The webview's web components (`@vscode-elements/elements`) draw an icon inside their shadow
 * root, where the page's rules do not reach: each one links the stylesheet the page names with
 * this id, with the page's nonce (so a strict CSP still applies). Chromium ignores `@font-face`
 * in a shadow root, so the page links it too: once for the font, once per icon for the classes.
 *
 * The build copies the font and its stylesheet from the pinned package into `dist/codicons/`.
 */

/** The `<link>` id @vscode-elements/elements looks up (vscode-icon's `_getStylesheetConfig`). */
export const CODICON_STYLESHEET_ID = 'vscode-codicon-stylesheet';

/** The files under `dist/` (the VS Code webview addresses them as webview resources). */
export const CODICON_DIR = 'codicons';
export const CODICON_CSS = 'codicon.css';
export const CODICON_FONT = 'codicon.ttf';

/** codicon.css with its font at `fontUrl` (a data: URL in a standalone page, which is one file). */
export function codiconCss(css: string, fontUrl: string): string {
  const replaced = css.replace(/url\((["']?)\.\/codicon\.ttf(\?[^"')]*)?\1\)/g, `url("${fontUrl}")`);
  if (replaced === css) throw new Error('codicon.css has no ./codicon.ttf font URL to replace: is @vscode/codicons the pinned version?');
  return replaced;
}
