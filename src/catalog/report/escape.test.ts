import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csvField, escapeHtml, escapeMarkdownCell, sanitizeTerminal } from './escape.js';

test('escaping for HTML, Markdown and CSV', () => {
  assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  assert.equal(escapeMarkdownCell('a|b\nc'), 'a\\|b c');
  assert.equal(csvField('a,"b"'), '"a,""b"""');
  assert.equal(csvField('=cmd()'), "'=cmd()");
  assert.equal(csvField('-1.5'), '-1.5');
});

test('terminal output shows control characters from a log as ?', () => {
  assert.equal(sanitizeTerminal('a\u001b[31mred\u0007\nnext\tcol'), 'a?[31mred?\nnext\tcol');
});
