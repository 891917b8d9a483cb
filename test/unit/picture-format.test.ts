/** What an upload is, by its first bytes alone (src/service/member/pictures/format.ts). */
import { expect, test } from 'vitest';
import { pictureFormat } from '../../src/service/member/pictures/format';

const bytes = (...parts: (number[] | string)[]) =>
  Uint8Array.from(parts.flatMap((part) => (typeof part === 'string' ? [...part].map((c) => c.charCodeAt(0)) : part)));

test('JPEG, PNG and WebP by their magic numbers', () => {
  expect(pictureFormat(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
  expect(pictureFormat(bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
  expect(pictureFormat(bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '))).toBe('webp');
});

test('anything else is none of them, a near miss included: SVG, HTML, GIF, another RIFF, a PNG signature cut short, nothing', () => {
  for (const other of [
    bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'),
    bytes('<?xml version="1.0"?><svg/>'),
    bytes('<!doctype html>'),
    bytes('GIF89a'),
    bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt '),
    bytes('RIFF', [0x24, 0, 0]),
    bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a]),
    bytes([0xff, 0xd8]),
    bytes(' ', [0xff, 0xd8, 0xff]),
    bytes(),
  ]) {
    expect(pictureFormat(other)).toBeUndefined();
  }
});
