/** What the screens accept as an address to show, play, open or go to. */
import { expect, test } from 'vitest';
import { webAddress } from '../../../src/widget/modal/web-address';

test.each(['https://cdn.example.com/a.mp4', 'http://example.com/x', 'HTTPS://EXAMPLE.COM/', '/examples/library/kit.pdf', '/a?b=c'])('%s is kept', (url) => {
  expect(webAddress(url)).toBe(url);
});

test.each(['javascript:alert(1)', 'data:text/html,<script>1</script>', '//evil.example/x', '/\\evil.example/x', 'files/x.pdf', '', undefined])('%j is refused', (url) => {
  expect(webAddress(url)).toBeUndefined();
});
