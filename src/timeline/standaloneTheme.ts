/**
 * The theme a standalone page brings with it: VS Code defines these CSS variables in a webview;
 * a page opened in a browser must define them itself, light and (for a dark system scheme) dark.
 */

const LIGHT = {
  'editor-background': '#ffffff',
  foreground: '#3b3b3b',
  descriptionForeground: '#717171',
  'editorWidget-border': '#c8c8c8',
  'panel-border': '#e5e5e5',
  'list-hoverBackground': 'rgba(0, 0, 0, 0.035)',
  focusBorder: '#005fb8',
  'charts-red': '#e51400',
  'charts-blue': '#1a85ff',
  'charts-yellow': '#bf8803',
  'charts-orange': '#d18616',
  'charts-green': '#388a34',
  'charts-purple': '#652d90',
  errorForeground: '#a1260d',
  'badge-background': '#cc6633',
  'badge-foreground': '#ffffff',
  'button-background': '#005fb8',
  'button-foreground': '#ffffff',
  'button-hoverBackground': '#0258a8',
  'button-secondaryBackground': '#e5e5e5',
  'button-secondaryForeground': '#3b3b3b',
  'button-secondaryHoverBackground': '#cccccc',
  'input-background': '#ffffff',
  'input-foreground': '#3b3b3b',
  'input-border': '#cecece',
  'sideBar-background': '#f8f8f8',
  'textCodeBlock-background': '#f0f0f0',
  'inputValidation-errorBackground': '#f2dede',
  'inputValidation-errorBorder': '#be1100',
  // What the web components read (@vscode-elements/elements), from VS Code's Light Modern theme.
  'icon-foreground': '#3b3b3b',
  'toolbar-hoverBackground': 'rgba(184, 184, 184, 0.31)',
  'toolbar-activeBackground': 'rgba(166, 166, 166, 0.31)',
  'inputOption-activeBackground': '#bed6ed',
  'inputOption-activeBorder': '#005fb8',
  'inputOption-activeForeground': '#000000',
  'button-border': 'rgba(0, 0, 0, 0.1)',
  'button-separator': 'rgba(255, 255, 255, 0.4)',
  'checkbox-background': '#f8f8f8',
  'checkbox-border': '#cecece',
  'checkbox-foreground': '#3b3b3b',
  'settings-checkboxBackground': '#f8f8f8',
  'settings-checkboxBorder': '#cecece',
  'settings-checkboxForeground': '#3b3b3b',
  'settings-dropdownBackground': '#ffffff',
  'settings-dropdownBorder': '#cecece',
  'settings-dropdownForeground': '#3b3b3b',
  'settings-dropdownListBorder': '#c8c8c8',
  'settings-textInputBackground': '#ffffff',
  'settings-textInputBorder': '#cecece',
  'settings-textInputForeground': '#3b3b3b',
  'input-placeholderForeground': '#767676',
  'list-activeSelectionBackground': '#e8e8e8',
  'list-activeSelectionForeground': '#000000',
  'list-focusOutline': '#005fb8',
  'list-highlightForeground': '#0066bf',
  'list-focusHighlightForeground': '#0066bf',
  'list-hoverForeground': '#3b3b3b',
  'widget-shadow': 'rgba(0, 0, 0, 0.16)',
};

const DARK = {
  'editor-background': '#1f1f1f',
  foreground: '#cccccc',
  descriptionForeground: '#9d9d9d',
  'editorWidget-border': '#454545',
  'panel-border': '#2b2b2b',
  'list-hoverBackground': 'rgba(255, 255, 255, 0.04)',
  focusBorder: '#0078d4',
  'charts-red': '#f14c4c',
  'charts-blue': '#3794ff',
  'charts-yellow': '#cca700',
  'charts-orange': '#d18616',
  'charts-green': '#89d185',
  'charts-purple': '#b180d7',
  errorForeground: '#f48771',
  'badge-background': '#cc6633',
  'badge-foreground': '#ffffff',
  'button-background': '#0078d4',
  'button-foreground': '#ffffff',
  'button-hoverBackground': '#026ec1',
  'button-secondaryBackground': '#313131',
  'button-secondaryForeground': '#cccccc',
  'button-secondaryHoverBackground': '#3c3c3c',
  'input-background': '#313131',
  'input-foreground': '#cccccc',
  'input-border': '#3c3c3c',
  'sideBar-background': '#181818',
  'textCodeBlock-background': '#2b2b2b',
  'inputValidation-errorBackground': '#5a1d1d',
  'inputValidation-errorBorder': '#be1100',
  // What the web components read, from VS Code's Dark Modern theme.
  'icon-foreground': '#cccccc',
  'toolbar-hoverBackground': 'rgba(90, 93, 94, 0.31)',
  'toolbar-activeBackground': 'rgba(99, 102, 103, 0.31)',
  'inputOption-activeBackground': 'rgba(36, 137, 219, 0.51)',
  'inputOption-activeBorder': '#2488db',
  'inputOption-activeForeground': '#ffffff',
  'button-border': 'rgba(255, 255, 255, 0.07)',
  'button-separator': 'rgba(255, 255, 255, 0.4)',
  'checkbox-background': '#313131',
  'checkbox-border': '#3c3c3c',
  'checkbox-foreground': '#cccccc',
  'settings-checkboxBackground': '#313131',
  'settings-checkboxBorder': '#3c3c3c',
  'settings-checkboxForeground': '#cccccc',
  'settings-dropdownBackground': '#313131',
  'settings-dropdownBorder': '#3c3c3c',
  'settings-dropdownForeground': '#cccccc',
  'settings-dropdownListBorder': '#454545',
  'settings-textInputBackground': '#313131',
  'settings-textInputBorder': '#3c3c3c',
  'settings-textInputForeground': '#cccccc',
  'input-placeholderForeground': '#989898',
  'list-activeSelectionBackground': '#04395e',
  'list-activeSelectionForeground': '#ffffff',
  'list-focusOutline': '#0078d4',
  'list-highlightForeground': '#2aaaff',
  'list-focusHighlightForeground': '#2aaaff',
  'list-hoverForeground': '#cccccc',
  'widget-shadow': 'rgba(0, 0, 0, 0.36)',
};

const vars = (o: Record<string, string>) =>
  Object.entries(o)
    .map(([k, v]) => `  --vscode-${k}: ${v};`)
    .join('\n');

export const THEME_FALLBACKS = `:root {
  color-scheme: light;
  --vscode-font-family: system-ui, -apple-system, "Segoe UI", Ubuntu, "Droid Sans", sans-serif;
  --vscode-font-size: 13px;
  --vscode-font-weight: normal;
  --vscode-editor-font-family: ui-monospace, Menlo, Consolas, "DejaVu Sans Mono", monospace;
  --vscode-editor-font-size: 12px;
${vars(LIGHT)}
}
@media (prefers-color-scheme: dark) {
  :root {
    color-scheme: dark;
${vars(DARK).replace(/^/gm, '  ')}
  }
}
`;
