import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';

/** One e-mail: always a plain-text and an HTML part. */
export type MailMessage = { to: string; subject: string; text: string; html: string };

export interface Mailer {
  /** Resolves once the SMTP server accepted the message (or the `.eml` file is written). */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export class MailError extends Error {
  override name = 'MailError';
}

export type MailerOptions = {
  /** `smtp://…` / `smtps://…`; unset: every message is written to `outboxDir` as an `.eml` file. */
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  logger: { info(object: object, message: string): void };
  /**
   * The longest the SMTP server may take to accept the connection, to greet, and to answer each step
   * (default 10 s). nodemailer's own defaults (2 min, 30 s, 10 min) would hold a request that long.
   */
  timeoutMs?: number;
};

/** The SMTP deadline the service uses unless told otherwise. */
export const SMTP_TIMEOUT_MS = 10_000;

/** Why nodemailer gave up, in words a client-facing log can carry. */
function smtpFailure(cause: unknown, timeoutMs: number): string {
  const code = (cause as { code?: string } | undefined)?.code;
  if (code === 'ETIMEDOUT') return `did not answer within ${timeoutMs / 1000} s`;
  if (code === 'ECONNECTION' || code === 'ESOCKET' || code === 'EDNS') return 'could not be reached';
  return 'refused the message';
}

/** The URL without its password, for log lines. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable SMTP URL)';
  }
}

/**
 * Outgoing mail through nodemailer: an SMTP server when one is configured, else an outbox folder in
 * the data dir (the embedded default), so a developer can open the message in a mail client.
 */
export function createMailer(options: MailerOptions): Mailer {
  const timeoutMs = options.timeoutMs ?? SMTP_TIMEOUT_MS;
  // nodemailer is loaded with the first message: a service that never mails does not carry it.
  let transport: Promise<Transporter> | undefined;
  const transporter = () => {
    transport ??= import('nodemailer').then(({ createTransport }) =>
      options.smtpUrl
        ? createTransport(
            {
              url: options.smtpUrl,
              connectionTimeout: timeoutMs,
              greetingTimeout: timeoutMs,
              socketTimeout: timeoutMs,
            } as Parameters<typeof createTransport>[0],
            { from: options.from },
          )
        : createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    );
    return transport;
  };
  const close = () => {
    transport?.then((opened) => opened.close()).catch(() => {});
  };
  if (options.smtpUrl) {
    const server = withoutPassword(options.smtpUrl);
    return {
      async send(message) {
        try {
          await (await transporter()).sendMail(message);
        } catch (cause) {
          throw new MailError(`the mail server ${server} ${smtpFailure(cause, timeoutMs)}`, { cause });
        }
      },
      close,
    };
  }
  return {
    async send(message) {
      const info = await (await transporter()).sendMail({ from: options.from, ...message });
      mkdirSync(options.outboxDir, { recursive: true });
      const path = join(
        options.outboxDir,
        `${new Date().toISOString().replaceAll(':', '-')}-${randomUUID()}.eml`,
      );
      writeFileSync(path, info.message as Buffer, { mode: 0o600 });
      options.logger.info(
        { path },
        'no SMTP server configured (CHAINGATE_SMTP_URL): mail written to the outbox',
      );
    },
    close,
  };
}
