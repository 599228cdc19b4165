import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSilentServer } from '../../../test/support/silent-server.ts';
import { createMailer, MailError } from './mailer.ts';

describe('createMailer', () => {
  it('without SMTP, writes each message as an .eml file to the outbox and logs where', async () => {
    const outboxDir = join(mkdtempSync(join(tmpdir(), 'cg-mail-')), 'outbox');
    const logged: object[] = [];
    const mailer = createMailer({
      smtpUrl: undefined,
      from: 'chaingate <no-reply@chaingate.invalid>',
      outboxDir,
      logger: { info: (object) => logged.push(object) },
    });
    await mailer.send({
      to: 'user@example.com',
      subject: 'Hello',
      text: 'plain 123456',
      html: '<p>html 123456</p>',
    });
    const [file] = readdirSync(outboxDir);
    expect(file).toMatch(/\.eml$/);
    const path = join(outboxDir, file as string);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const raw = readFileSync(path, 'utf8');
    expect(raw).toContain('To: user@example.com');
    expect(raw).toContain('Content-Type: text/plain');
    expect(raw).toContain('Content-Type: text/html');
    expect(logged).toEqual([{ path }]);
    mailer.close();
    rmSync(outboxDir, { recursive: true, force: true });
  });

  it('with an SMTP server that is not there, fails with a MailError that hides the password', async () => {
    const mailer = createMailer({
      smtpUrl: 'smtp://user:secret@127.0.0.1:9',
      from: 'x@example.com',
      outboxDir: tmpdir(),
      logger: { info: () => {} },
    });
    const failure = await mailer
      .send({ to: 'a@example.com', subject: 's', text: 't', html: 'h' })
      .catch((e) => e);
    expect(failure).toBeInstanceOf(MailError);
    expect(failure.message).toContain('could not be reached');
    expect(failure.message).not.toContain('secret');
    mailer.close();
  });

  it('gives up on an SMTP server that accepts the connection and never greets, within its deadline', async () => {
    // Without a deadline of its own, nodemailer waits 30 s for the greeting (and 10 min on a stalled
    // socket), and so does the request that sends the mail.
    const silent = await startSilentServer();
    const mailer = createMailer({
      smtpUrl: `smtp://user:secret@127.0.0.1:${silent.port}`,
      from: 'x@example.com',
      outboxDir: tmpdir(),
      logger: { info: () => {} },
      timeoutMs: 300,
    });
    try {
      const failure = await mailer
        .send({ to: 'a@example.com', subject: 's', text: 't', html: 'h' })
        .catch((e) => e);
      expect(failure).toBeInstanceOf(MailError);
      expect(failure.message).toContain('did not answer within 0.3 s');
      expect(failure.message).not.toContain('secret');
    } finally {
      mailer.close();
      await silent.close();
    }
  });
});
