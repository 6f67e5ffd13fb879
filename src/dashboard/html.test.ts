import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SafeHtml, html, trusted } from './html.js';

describe('html template', () => {
  test('escapes interpolated text, including attribute quotes', () => {
    const name = '<script>alert("x")</script> & \'q\'';
    assert.equal(
      html`<td title="${name}">${name}</td>`.text,
      '<td title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;</td>',
    );
  });

  test('nested fragments and arrays are kept; null, undefined and false vanish', () => {
    const items = ['<a>', 'b'].map((x) => html`<li>${x}</li>`);
    assert.equal(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.text, '<ul><li>&lt;a&gt;</li><li>b</li></ul>0');
  });

  test('trusted markup passes through unchanged', () => {
    const fragment = trusted('<svg><text>&lt;x&gt;</text></svg>');
    assert.ok(fragment instanceof SafeHtml);
    assert.equal(html`<div>${fragment}</div>`.text, '<div><svg><text>&lt;x&gt;</text></svg></div>');
  });
});
