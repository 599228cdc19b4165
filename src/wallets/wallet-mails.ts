import type { MailMessage } from '../platform/mail/mailer.ts';

/** A code as an e-mail: the code is the only secret it carries, in a plain-text and an HTML part. */
function codeMail(to: string, subject: string, purpose: string, code: string, validity: string): MailMessage {
  const text = [
    `${purpose}`,
    '',
    `Your code: ${code}`,
    '',
    `It is valid for ${validity} and can be used once.`,
    'If you did not ask for it, ignore this e-mail: nothing happens without the code.',
  ].join('\n');
  const html = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Your code</title></head>',
    '<body style="font-family:sans-serif;line-height:1.5">',
    `<p>${purpose}</p>`,
    `<p>Your code: <strong style="font-size:1.5em;letter-spacing:0.15em">${code}</strong></p>`,
    `<p>It is valid for ${validity} and can be used once.</p>`,
    '<p>If you did not ask for it, ignore this e-mail: nothing happens without the code.</p>',
    '</body></html>',
  ].join('');
  return { to, subject, text, html };
}

export function walletSetupCodeMail(to: string, code: string, validMinutes: number): MailMessage {
  return codeMail(
    to,
    'Your code to create your wallet',
    'Enter this code on the wallet page to create your wallet.',
    code,
    `${validMinutes} minutes`,
  );
}

export function signatureCodeMail(to: string, code: string, validSeconds: number): MailMessage {
  return codeMail(
    to,
    'Your code to sign a transaction',
    'A transaction from your wallet is waiting for your confirmation. Give this code to confirm it.',
    code,
    `${validSeconds} seconds`,
  );
}
