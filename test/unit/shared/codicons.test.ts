import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { codiconCss } from '../../../src/shared/codicons';

describe('codicons', () => {
  it('points the pinned codicon.css at the font URL given (a data: URL in a standalone page)', () => {
    const css = readFileSync(require.resolve('@vscode/codicons/dist/codicon.css'), 'utf8');
    const out = codiconCss(css, 'data:font/ttf;base64,AAEA');
    assert.match(out, /src: url\("data:font\/ttf;base64,AAEA"\) format\("truetype"\)/);
    assert.doesNotMatch(out, /codicon\.ttf/);
    assert.match(out, /\.codicon-zoom-in:before/, 'the classes stay');
  });

  it('refuses a stylesheet without the font URL it expects (another version of the package)', () => {
    assert.throws(() => codiconCss('.codicon {}', 'data:,'), /no \.\/codicon\.ttf font URL/);
  });
});
