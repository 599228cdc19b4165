import qrcode from 'qrcode-generator';

/** Four modules of white around the code, as the QR specification asks, so phones find it. */
const QUIET_ZONE = 4;

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * An ASCII text (an `otpauth://` URI) as a QR code in SVG, drawn here so the page needs no third-party
 * service or script. Only presentation attributes, no `style`, so a strict CSP applies to it unchanged.
 */
export function qrCodeSvg(text: string, label: string): string {
  const qr = qrcode(0, 'M');
  qr.addData(text, 'Byte');
  qr.make();
  const count = qr.getModuleCount();
  const size = count + 2 * QUIET_ZONE;
  let path = '';
  for (let row = 0; row < count; row++) {
    for (let column = 0; column < count; column++) {
      if (qr.isDark(row, column)) path += `M${column + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
    }
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" width="240" height="240" ` +
    `role="img" aria-label="${escapeXml(label)}" shape-rendering="crispEdges">` +
    `<rect width="${size}" height="${size}" fill="#ffffff"/><path fill="#000000" d="${path}"/></svg>`
  );
}
