// @vitest-environment happy-dom
// @vitest-environment-options {"url": "https://www.demo.localhost/pricing/"}
/** Site owners' rich text, cut to the allowlist again in the widget before it is shown. */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { richText } from '../../../src/widget/modal/rich-text';

const render = (html: string) => {
  const box = document.createElement('div');
  box.append(richText(document, html));
  return box;
};
const clean = (html: string) => render(html).innerHTML;

test.each([
  ['<p>Join the <strong>community</strong>: <em>all</em> of it.</p>', '<p>Join the <strong>community</strong>: <em>all</em> of it.</p>'],
  ['<ul><li>one</li><li><b>two</b></li></ul><ol><li>x</li></ol>', '<ul><li>one</li><li><b>two</b></li></ul><ol><li>x</li></ol>'],
  ['<h3>Title</h3><h4>Sub</h4><blockquote>q</blockquote><code>c</code><u>u</u><s>s</s><i>i</i>a<br>b', '<h3>Title</h3><h4>Sub</h4><blockquote>q</blockquote><code>c</code><u>u</u><s>s</s><i>i</i>a<br>b'],
  ['plain text & more', 'plain text &amp; more'],
  ['<p class="x" style="color:red" onclick="alert(1)" id="y">p</p>', '<p>p</p>'],
  ['<div><span>inside</span> a div</div>', 'inside a div'],
  ['<h1>big</h1><table><tr><td>cell</td></tr></table>', 'bigcell'],
  ['<script>alert(1)</script>after', 'after'],
  ['<style>p{}</style><iframe src="x">f</iframe><noscript>n</noscript><textarea>t</textarea>ok', 'ok'],
  ['<img src=x onerror=alert(1)>text', 'text'],
  ['<template><p>hidden</p></template>ok', 'ok'],
  ['<p>unclosed <strong>bold', '<p>unclosed <strong>bold</strong></p>'],
])('%s', (html, expected) => {
  expect(clean(html)).toBe(expected);
});

test('svg and math go whole, with whatever they hold', () => {
  const box = render('<svg><script>alert(1)</script><a href="https://e.com">s</a></svg><math><mi>x</mi></math>');
  expect(box.querySelectorAll('*')).toHaveLength(0);
  expect(box.textContent).not.toMatch(/alert|s|x/);
});

test.each([
  ['https://example.com/a?b=1', 'https://example.com/a?b=1'],
  ['http://example.com/', 'http://example.com/'],
  ['mailto:help@demo.localhost', 'mailto:help@demo.localhost'],
  ['/join', 'https://www.demo.localhost/join'],
  ['terms', 'https://www.demo.localhost/pricing/terms'],
])('a link to %s keeps its address, opens away and tells the target nothing', (href, resolved) => {
  const link = render(`<a href="${href}" title="More" class="c" target="_self" rel="opener">more</a>`).querySelector('a')!;
  expect(link.getAttribute('href')).toBe(resolved);
  expect(link.getAttribute('target')).toBe('_blank');
  expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  expect(link.title).toBe('More');
  expect(link.getAttributeNames().sort()).toEqual(['href', 'rel', 'target', 'title']);
});

test.each([
  'javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)', 'java&#x09;script:alert(1)',
  'data:text/html,<script>alert(1)</script>', 'vbscript:x', '//evil.example/x', ' //evil.example/x', 'ftp://example.com/',
  'http://[bad', '',
])('a link to %j loses its address but keeps its text', (href) => {
  const box = render(`<a href="${href}">text</a>`);
  expect(box.querySelector('a')!.hasAttribute('href')).toBe(false);
  expect(box.textContent).toBe('text');
});

test('nothing parsed reaches the page: every node out is a fresh one', () => {
  const fragment = richText(document, '<p><b>x</b></p>');
  const template = document.createElement('template');
  template.innerHTML = '<p><b>x</b></p>';
  expect(fragment.firstChild).not.toBe(template.content.firstChild);
  expect(fragment.ownerDocument).toBe(document);
});

test('property: whatever the HTML, only allowed elements, allowed attributes and safe links come out', () => {
  const tag = fc.constantFrom('p', 'b', 'a', 'script', 'img', 'div', 'iframe', 'svg', 'style', 'li', 'h1', 'form', 'input', 'object', 'math');
  const attr = fc.constantFrom('href', 'src', 'onclick', 'onerror', 'style', 'class', 'title', 'target', 'formaction', 'xlink:href');
  const value = fc.constantFrom('javascript:alert(1)', 'https://ok.example/', '//x.example', 'alert(1)', '" onmouseover="x', 'data:,x', '');
  const element = fc.letrec<{ node: string }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      fc.string({ maxLength: 8 }),
      fc
        .tuple(tag, fc.array(fc.tuple(attr, value), { maxLength: 3 }), fc.array(tie('node'), { maxLength: 3 }))
        .map(([t, attrs, children]) => `<${t}${attrs.map(([a, v]) => ` ${a}="${v}"`).join('')}>${children.join('')}</${t}>`),
    ),
  })).node;
  fc.assert(
    fc.property(fc.array(element, { maxLength: 4 }), (parts) => {
      const box = render(parts.join(''));
      for (const el of box.querySelectorAll('*')) {
        expect(['P', 'B', 'A', 'LI', 'BR', 'STRONG', 'EM', 'I', 'U', 'S', 'UL', 'OL', 'H3', 'H4', 'BLOCKQUOTE', 'CODE']).toContain(el.tagName);
        for (const name of el.getAttributeNames()) expect(['href', 'title', 'target', 'rel']).toContain(name);
        const href = el.getAttribute('href');
        if (href !== null) expect(href).toMatch(/^(https?:|mailto:)/);
      }
    }),
    { numRuns: 300 },
  );
});
