/**
 * Colours for the canvas, read from VS Code's theme variables. The DOM parts style themselves
 * with the same variables in media/timeline.css; the canvas cannot use CSS, so it reads the
 * computed values here, and again whenever VS Code switches theme (it changes the body class:
 * vscode-light / vscode-dark / vscode-high-contrast) or, in a standalone export, the system
 * colour scheme changes.
 */

export interface Theme {
  background: string;
  foreground: string;
  muted: string;
  grid: string;
  laneAlt: string;
  focus: string;
  message: string;
  gap: string;
  redelivery: string;
  republish: string;
  late: string;
  reordered: string;
  reset: string;
  /** A comparison's ranges only side A / only side B had (both lost: the gap colour). */
  onlyA: string;
  onlyB: string;
  invalid: string;
  cursor: string;
  hot: string;
  hotText: string;
  font: string;
  highContrast: boolean;
}

/** Variable name and the value used when the host does not define it. */
const VARS: Record<keyof Omit<Theme, 'font' | 'highContrast'>, [string, string]> = {
  background: ['--vscode-editor-background', '#1e1e1e'],
  foreground: ['--vscode-foreground', '#cccccc'],
  muted: ['--vscode-descriptionForeground', '#9d9d9d'],
  grid: ['--vscode-editorWidget-border', '#454545'],
  laneAlt: ['--vscode-list-hoverBackground', 'rgba(128,128,128,0.08)'],
  focus: ['--vscode-focusBorder', '#007fd4'],
  message: ['--vscode-charts-blue', '#3794ff'],
  gap: ['--vscode-charts-red', '#f14c4c'],
  redelivery: ['--vscode-charts-orange', '#d18616'],
  republish: ['--vscode-charts-purple', '#b180d7'],
  late: ['--vscode-charts-yellow', '#cca700'],
  reordered: ['--vscode-terminal-ansiBrightCyan', '#29b8db'],
  reset: ['--vscode-terminal-ansiMagenta', '#bc3fbc'],
  onlyA: ['--vscode-terminal-ansiGreen', '#0dbc79'],
  onlyB: ['--vscode-charts-purple', '#b180d7'],
  invalid: ['--vscode-errorForeground', '#f48771'],
  cursor: ['--vscode-charts-green', '#89d185'],
  hot: ['--vscode-badge-background', '#4d4d4d'],
  hotText: ['--vscode-badge-foreground', '#ffffff'],
};

export function readTheme(el: Element = document.body): Theme {
  const cs = getComputedStyle(el);
  const t = {} as Theme;
  for (const [name, [v, fallback]] of Object.entries(VARS) as [keyof typeof VARS, [string, string]][]) {
    t[name] = cs.getPropertyValue(v).trim() || fallback;
  }
  const family = cs.getPropertyValue('--vscode-font-family').trim() || cs.fontFamily || 'sans-serif';
  const size = cs.getPropertyValue('--vscode-font-size').trim() || '12px';
  t.font = `${size} ${family}`;
  t.highContrast = document.body.classList.contains('vscode-high-contrast');
  return t;
}

/** Calls `onChange` when the theme may have changed; returns a function that stops watching. */
export function watchTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.body, { attributes: true, attributeFilter: ['class'] });
  // VS Code also rewrites the variables on <html> when only the colour theme changes.
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['style', 'class'] });
  const mq = matchMedia('(prefers-color-scheme: dark)');
  mq.addEventListener('change', onChange);
  return () => {
    observer.disconnect();
    mq.removeEventListener('change', onChange);
  };
}

/**
 * A standalone page has no VS Code to set the body class: follow the system scheme, so CSS
 * written for vscode-light / vscode-dark applies there too.
 */
export function followSystemScheme(): void {
  const mq = matchMedia('(prefers-color-scheme: dark)');
  const apply = () => {
    document.body.classList.toggle('vscode-dark', mq.matches);
    document.body.classList.toggle('vscode-light', !mq.matches);
  };
  apply();
  mq.addEventListener('change', apply);
}

/** The colour with an alpha (accepts #rgb, #rrggbb, rgb(), rgba(); others get canvas globalAlpha instead). */
export function withAlpha(color: string, alpha: number): string {
  const c = color.trim();
  let m = /^#([0-9a-f]{3})$/i.exec(c);
  if (m) {
    const [r, g, b] = m[1].split('').map((h) => parseInt(h + h, 16));
    return `rgba(${r},${g},${b},${alpha})`;
  }
  m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(c);
  if (m) {
    const n = parseInt(m[1], 16);
    const a = m[2] ? (parseInt(m[2], 16) / 255) * alpha : alpha;
    return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${a})`;
  }
  const r = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:[,/\s]+([\d.]+%?))?\s*\)$/i.exec(c);
  if (r) {
    const base = r[4] === undefined ? 1 : r[4].endsWith('%') ? parseFloat(r[4]) / 100 : parseFloat(r[4]);
    return `rgba(${r[1]},${r[2]},${r[3]},${base * alpha})`;
  }
  return c;
}
