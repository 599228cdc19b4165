import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export type ReceivedMail = { to: string[]; raw: string };

export type SmtpSink = {
  /** `smtp://127.0.0.1:<port>` for CHAINGATE_SMTP_URL. */
  url: string;
  mails: ReceivedMail[];
  /** The next mail to `address` not taken yet (waits for it). */
  nextMail(address: string, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
};

/** A real SMTP server on loopback that keeps every message it receives (no TLS, no auth). */
export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: ReceivedMail[] = [];
  const taken = new Set<ReceivedMail>();
  let notify: () => void = () => {};
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = (session.envelope.rcptTo ?? []).map((recipient) => recipient.address.toLowerCase());
        mails.push({ to, raw: Buffer.concat(chunks).toString('utf8') });
        notify();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async nextMail(address, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = mails.find((m) => !taken.has(m) && m.to.includes(address.toLowerCase()));
        if (mail) {
          taken.add(mail);
          return mail;
        }
        if (Date.now() > deadline) throw new Error(`no mail to ${address} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          notify = resolve;
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The 6-digit code of a chaingate code mail. */
export function codeIn(mail: ReceivedMail): string {
  const match = /Your code: (\d{6})/.exec(mail.raw);
  if (!match?.[1]) throw new Error(`no code in mail:\n${mail.raw}`);
  return match[1];
}
