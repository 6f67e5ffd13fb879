import { test } from 'node:test';
import assert from 'node:assert/strict';
import { htmlToDocumentText, looksLikeHtml } from './html-page.js';

test('headings with their ids, tables as Markdown with #anchor links, code blocks line for line and fenced', () => {
  const html = `<!doctype html><html><head><title>t</title><script>var x = '<pre>'</script></head><body>
    <nav>Menu</nav><h2 id="ll">Low Latency</h2>
    <table><tr><th>Model</th><th colspan="2">Cards</th></tr><tr><td>Qwen3 &amp; co</td><td><a href="#r1">8</a></td><td>a|b</td></tr></table>
    <p>Model: Qwen3-8B<br>TPOT: 20ms</p>
    <pre><code><span>export A=1<br></span><span>sglang serve --tp $A \\<br></span><div>  --port 3000</div></code></pre></body></html>`;
  assert.equal(
    htmlToDocumentText(html),
    ['## Low Latency {#ll}', '', '| Model | Cards | Cards |', '|---|---|---|', '| Qwen3 & co | [8](#r1) | a\\|b |', '', 'Model: Qwen3-8B', 'TPOT: 20ms', '',
      '```', 'export A=1', 'sglang serve --tp $A \\', '  --port 3000', '```'].join('\n'),
  );
});

test('an HTML page is told from a log or Markdown that mentions a tag', () => {
  assert.equal(looksLikeHtml('<!DOCTYPE html>\n<html>'), true);
  assert.equal(looksLikeHtml('<div><table></table></div>'), true);
  assert.equal(looksLikeHtml('# Notes\nuse <b>bold</b> here\n</div>'), false);
  assert.equal(looksLikeHtml('<div align="center"><img src="logo.png"></div>\n\n| a | b |\n|---|---|\n| 1 | 2 |\n<pre>x</pre>'), false);
});
