/** Bytes read from the start of a file to sniff its type. */
export const SNIFF_BYTES = 512;

const byExtension: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  json: 'application/json',
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  glb: 'model/gltf-binary',
  gltf: 'model/gltf+json',
  zip: 'application/zip',
};

function startsWith(bytes: Uint8Array, signature: number[], at = 0): boolean {
  return signature.every((byte, index) => bytes[at + index] === byte);
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}

/** The type the leading bytes prove, from a small table of magic numbers; undefined when none fits. */
function sniffMagic(head: Uint8Array): string | undefined {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'image/webp';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WAVE') return 'audio/wav';
  if (ascii(head, 4, 8) === 'ftyp') return 'video/mp4';
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return 'video/webm';
  if (ascii(head, 0, 5) === '%PDF-') return 'application/pdf';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'application/zip';
  if (ascii(head, 0, 4) === 'glTF') return 'model/gltf-binary';
  if (ascii(head, 0, 3) === 'ID3' || startsWith(head, [0xff, 0xfb])) return 'audio/mpeg';
  return undefined;
}

/** Control bytes other than tab, line feed, vertical tab, form feed and carriage return. */
function hasControlBytes(bytes: Uint8Array): boolean {
  return bytes.some((byte) => byte < 0x09 || (byte > 0x0d && byte < 0x20) || byte === 0x7f);
}

/** True for bytes that decode as UTF-8 text without control characters (a cut last character is fine). */
function looksLikeText(head: Uint8Array): boolean {
  if (head.length === 0) return false;
  let text: string;
  try {
    // A multi-byte character cut at the end of the sample is not a reason to call it binary.
    text = new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, trimIncomplete(head)));
  } catch {
    return false;
  }
  return text.length > 0 && !hasControlBytes(head);
}

function trimIncomplete(bytes: Uint8Array): number {
  let end = bytes.length;
  for (let back = 1; back <= 3 && end - back >= 0; back++) {
    const byte = bytes[end - back] as number;
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    if (needed > back) end -= back;
    break;
  }
  return end;
}

function textFlavour(head: Uint8Array): string {
  const text = new TextDecoder().decode(head).trimStart();
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(text)) return 'image/svg+xml';
  if (/^<!doctype html|^<html[\s>]/i.test(text)) return 'text/html; charset=utf-8';
  if (/^[[{]/.test(text)) return 'application/json';
  return 'text/plain; charset=utf-8';
}

/**
 * The Content-Type of a file from its first bytes and its name: a magic number wins; then the
 * extension; then text or JSON or SVG by a look at the text; `application/octet-stream` otherwise.
 */
export function sniffContentType(head: Uint8Array, filename: string | undefined): string {
  const magic = sniffMagic(head);
  if (magic) return magic;
  const extension = filename?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1];
  const named = extension ? byExtension[extension] : undefined;
  if (named) return named;
  if (looksLikeText(head)) return textFlavour(head);
  return 'application/octet-stream';
}

/** Types a browser would run script in: served sandboxed, since the gateway shares the API's origin. */
export function isActiveContent(contentType: string): boolean {
  return /^(text\/html|image\/svg\+xml|application\/xhtml\+xml|text\/xml|application\/xml)/.test(contentType);
}
