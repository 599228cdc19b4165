import jsQRModule from 'jsqr';
import { describe, expect, it } from 'vitest';
import { newTotpSecret } from './credentials/totp.ts';
import { qrCodeSvg } from './qr-svg.ts';

// A CommonJS module: its function is also its `default`, the only name its types give it under NodeNext.
const jsQR = jsQRModule.default;

/** Paints the SVG's module squares into an RGBA bitmap, `scale` pixels a module, as a screen would. */
function rasterize(svg: string, scale: number): { data: Uint8ClampedArray; size: number } {
  const modules = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
  const size = modules * scale;
  const data = new Uint8ClampedArray(size * size * 4).fill(255);
  for (const [, x, y] of svg.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
    for (let dy = 0; dy < scale; dy++) {
      for (let dx = 0; dx < scale; dx++) {
        const offset = ((Number(y) * scale + dy) * size + Number(x) * scale + dx) * 4;
        data.fill(0, offset, offset + 3);
      }
    }
  }
  return { data, size };
}

describe('qrCodeSvg', () => {
  it('draws a QR code that a QR decoder reads back as the otpauth URI', () => {
    const { otpauthUri } = newTotpSecret('My Shop', 'someone+wallet@example.com');
    const svg = qrCodeSvg(otpauthUri, 'QR code');
    const { data, size } = rasterize(svg, 4);
    expect(jsQR(data, size, size)?.data).toBe(otpauthUri);
  });

  it('is plain SVG: no script, no style, the label escaped', () => {
    const svg = qrCodeSvg('otpauth://totp/x?secret=AAAA', 'a "label" <b>');
    expect(svg).not.toMatch(/<script|style=|<b>/);
    expect(svg).toContain('aria-label="a &#34;label&#34; &#60;b&#62;"');
  });
});
