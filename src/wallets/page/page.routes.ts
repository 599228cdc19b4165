import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { errorResponses } from '../../platform/http/error-body.ts';
import { repoRoot } from '../../platform/repo-root.ts';
import { retryAfterOnErrors } from '../retry-after.ts';
import { confirmWalletSetup } from '../services/confirm-wallet-setup.ts';
import { describeWalletHash } from '../services/open-wallet-hash.ts';
import { startWalletSetup } from '../services/start-wallet-setup.ts';
import type { Strategy } from '../wallets.repository.ts';
import { pinText } from '../wallets.schemas.ts';
import {
  ConfirmAnswer,
  ConfirmBody,
  HashInfo,
  HashParams,
  HashQuery,
  SetupAnswer,
  SetupBody,
} from './page.schemas.ts';

/**
 * Only this origin's files and API: no inline script or style, no third-party script, font or frame.
 * `no-referrer` keeps the hash in the page's URL from leaking to any link the user follows.
 */
const pageHeaders = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; " +
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const assets: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'wallet.js': 'text/javascript; charset=utf-8',
  'wallet.css': 'text/css; charset=utf-8',
  'favicon.svg': 'image/svg+xml',
};

const tags = ['wallet page'];
const security: [] = [];
const hashCodes = [
  'CG_ERR_UNKNOWN_HASH',
  'CG_ERR_HASH_EXPIRED',
  'CG_ERR_HASH_USED',
  'CG_ERR_STRATEGY_NOT_ALLOWED',
] as const;

/**
 * The wallet website at `/wallet/` (`{wallet_url}`) and the JSON API it runs on. No API key: the hash
 * is the credential. The page is static (one HTML, one script, one stylesheet, no build step).
 */
export async function walletPageRoutes(scope: FastifyInstance): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  retryAfterOnErrors(app);
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(pageHeaders);
    return payload;
  });

  const directory = join(repoRoot(), 'src/wallets/page');
  const files = new Map(
    Object.entries(assets).map(([name, type]) => [name, { body: readFileSync(join(directory, name)), type }]),
  );
  const serve = (name: string) => {
    const file = files.get(name) as { body: Buffer; type: string };
    return async (_request: unknown, reply: FastifyReply) => reply.type(file.type).send(file.body);
  };

  app.get('/wallet', { schema: { hide: true } }, async (request, reply) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply.redirect(`/wallet/${query}`, 302);
  });
  app.get('/wallet/', { schema: { hide: true } }, serve('index.html'));
  app.get('/wallet/wallet.js', { schema: { hide: true } }, serve('wallet.js'));
  app.get('/wallet/wallet.css', { schema: { hide: true } }, serve('wallet.css'));
  app.get('/wallet/favicon.svg', { schema: { hide: true } }, serve('favicon.svg'));

  app.get(
    '/wallet/api/hash/:hash',
    {
      schema: {
        tags,
        security,
        summary: 'What the wallet page shows for a hash: its state and the strategies the customer allows',
        params: HashParams,
        querystring: HashQuery,
        response: { 200: HashInfo, ...errorResponses(['CG_ERR_UNKNOWN_HASH'], { credentials: false }) },
      },
    },
    async (request) => describeWalletHash(app.wallets, request.params.hash, request.query.username),
  );

  app.post(
    '/wallet/api/setup',
    {
      schema: {
        tags,
        security,
        summary:
          'Start a strategy: 1 answers {}; 2 answers the authenticator secret (URI, base32, QR SVG); 3 e-mails a code',
        description:
          'Calling it again starts over (a new TOTP secret, or another e-mail at most every 30 s). An e-mailed code is ' +
          'valid for 10 minutes.',
        body: SetupBody,
        response: {
          200: SetupAnswer,
          ...errorResponses(
            [...hashCodes, 'CG_ERR_WALLET_EXISTS', 'CG_ERR_CODE_RECENTLY_SENT', 'CG_ERR_MAIL_FAILED'],
            {
              credentials: false,
            },
          ),
        },
      },
    },
    async (request) =>
      startWalletSetup(app.wallets, {
        hash: request.body.hash,
        username: request.body.username,
        strategy: request.body.strategy as Strategy,
      }),
  );

  app.post(
    '/wallet/api/confirm',
    {
      schema: {
        tags,
        security,
        summary:
          'Create the wallet: with the chosen PIN (1), the authenticator’s code (2) or the e-mailed code (3)',
        description:
          'On success the wallet exists, the hash is spent and the signed callback is queued. A wrong code answers 401 ' +
          'and the hash stays usable; 5 wrong in a row lock it for 15 minutes (429 with Retry-After).',
        body: ConfirmBody,
        response: {
          200: ConfirmAnswer,
          ...errorResponses(
            [
              ...hashCodes,
              'CG_ERR_SETUP_NOT_STARTED',
              'CG_ERR_INVALID_PIN',
              'CG_ERR_WALLET_LOCKED',
              'CG_ERR_WALLET_EXISTS',
            ],
            { credentials: false },
          ),
        },
      },
    },
    async (request) =>
      confirmWalletSetup(app.wallets, {
        hash: request.body.hash,
        username: request.body.username,
        strategy: request.body.strategy as Strategy,
        pin: pinText(request.body.pin),
      }),
  );
}
