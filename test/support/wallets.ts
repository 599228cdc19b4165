import { Secret, TOTP } from 'otpauth';
import { type ApiAnswer, apiClient } from './api-client.ts';
import type { TestService } from './service.ts';
import { codeIn, type SmtpSink } from './smtp-sink.ts';

type Call = ReturnType<typeof apiClient>;

export const customerUrls = {
  callbackUrl: 'http://127.0.0.1:9/callback',
  fallbackUrl: 'https://shop.example/wallet-failed',
  cancelUrl: 'https://shop.example/wallet-cancelled',
};

/** `POST /cwll/v1/hash/new`, answered as is. */
export function requestHash(
  call: Call,
  username: string,
  strategies: number[],
  urls: Partial<typeof customerUrls> = {},
): Promise<ApiAnswer> {
  return call('POST', '/cwll/v1/hash/new', { username, strategies, ...customerUrls, ...urls });
}

/** The current code of an authenticator secret at the service's wallet clock (`stepOffset` steps later). */
export function totpCode(service: TestService, secretBase32: string, stepOffset = 0): string {
  return TOTP.generate({
    secret: Secret.fromBase32(secretBase32),
    timestamp: service.app.wallets.clock.now() + stepOffset * 30_000,
  });
}

/** `pin`: the PIN (strategy 1) or the code that confirmed the wallet (spent). */
export type CreatedWallet = { address: string; hash: string; pin: string; totpSecret?: string };

/**
 * Creates a wallet through the page's JSON API, as the page does: hash, setup, confirm (the PIN, the
 * authenticator's code, or the code read from the SMTP sink).
 */
export async function createWallet(
  service: TestService,
  call: Call,
  options: { username: string; strategy: 1 | 2 | 3; smtp?: SmtpSink; pin?: string; callbackUrl?: string },
): Promise<CreatedWallet> {
  const page = apiClient(service.url, {});
  const hashAnswer = await requestHash(call, options.username, [options.strategy], {
    ...(options.callbackUrl ? { callbackUrl: options.callbackUrl } : {}),
  });
  if (hashAnswer.status !== 201)
    throw new Error(`hash/new answered ${hashAnswer.status}: ${hashAnswer.text}`);
  const { hash } = hashAnswer.body;
  const body = { hash, username: options.username, strategy: options.strategy };
  const setup = await page('POST', '/wallet/api/setup', body);
  if (setup.status !== 200) throw new Error(`setup answered ${setup.status}: ${setup.text}`);
  let pin: string;
  if (options.strategy === 1) pin = options.pin ?? '0123';
  else if (options.strategy === 2) pin = totpCode(service, setup.body.secret);
  else {
    if (!options.smtp) throw new Error('strategy 3 needs the SMTP sink');
    pin = codeIn(await options.smtp.nextMail(options.username));
  }
  const confirm = await page('POST', '/wallet/api/confirm', { ...body, pin });
  if (confirm.status !== 200) throw new Error(`confirm answered ${confirm.status}: ${confirm.text}`);
  return {
    address: confirm.body.accountAddress,
    hash,
    pin,
    ...(options.strategy === 2 ? { totpSecret: setup.body.secret } : {}),
  };
}
