import { Type } from 'typebox';
import {
  AddressField,
  aliasNote,
  ChainIdField,
  GweiField,
  MyReferenceField,
  UintField,
} from '../evm/request-fields.ts';
import { MutableBody } from '../evm/transact/transact.schemas.ts';

export const StrategyField = Type.Integer({
  minimum: 1,
  maximum: 3,
  description:
    '1: a PIN the user chose; 2: an authenticator app (TOTP, 30 s codes); 3: a code e-mailed to the user',
});

export const EmailField = (description: string) =>
  Type.String({ format: 'email', minLength: 3, maxLength: 254, description });

const HttpUrlField = (description: string) =>
  Type.String({ minLength: 10, maxLength: 2048, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://', description });

/** `pin` arrives as a string or a number (a number loses leading zeros: PINs are best sent as strings). */
export const PinField = (description: string) =>
  Type.Unsafe<string | number>({
    type: ['string', 'integer'],
    pattern: '^[0-9]+$',
    minLength: 1,
    maxLength: 64,
    minimum: 0,
    maximum: 999_999_999_999,
    description: `${description}. Digits, as a string or a number (a number loses leading zeros: send PINs as strings)`,
  });

const SendPinField = PinField(
  'strategy 1: the wallet’s PIN; 2: the current code of the authenticator app; 3: a code from ' +
    '`POST /cwll/v1/2fa/signature/otp/new`. Codes are single-use; 5 wrong in a row lock the wallet for 15 minutes ' +
    '(429 with Retry-After)',
);

/** The PIN as text, as the user typed it when it came as a string. */
export function pinText(pin: string | number): string {
  return typeof pin === 'number' ? String(pin) : pin;
}

export const HashNewBody = Type.Object(
  {
    username: EmailField(
      'the user’s e-mail address (compared without case): one wallet per user and application',
    ),
    strategies: Type.Array(StrategyField, {
      minItems: 1,
      maxItems: 3,
      uniqueItems: true,
      description:
        'the strategies the user may choose from on the wallet page: a non-empty subset of 1, 2, 3',
    }),
    callbackUrl: HttpUrlField(
      'http(s) URL that receives the signed success callback `{hash, username, accountAddress, strategy, creationTimestamp}` ' +
        '(header `X-Chaingate-Signature: sha256=<hex HMAC-SHA256 of the raw body>`, keyed with the application’s callback key); ' +
        'retried with exponential backoff until it answers 2xx, for up to 24 h',
    ),
    fallbackUrl: HttpUrlField('http(s) URL the page offers when the link has expired or was used'),
    cancelUrl: HttpUrlField('http(s) URL the page sends the user to on “Cancel”'),
  },
  { additionalProperties: false },
);

export const HashNewAnswer = Type.Object({
  hash: Type.String({ description: 'single-use hash: the credential of the wallet page for this user' }),
  expirationTime: Type.Integer({ description: 'Unix timestamp (seconds) at which the hash expires' }),
  walletUrl: Type.String({ description: 'where to send the user: `{wallet_url}/?hash=…&username=…`' }),
});

export const AddressInput = Type.Object({ userEmail: EmailField('the user’s e-mail address') });

export const AddressAnswer = Type.Object({
  accountAddress: Type.String({ description: 'the wallet’s first (only) account' }),
  strategy: Type.Integer({ description: 'the wallet’s strategy: 1, 2 or 3' }),
});

export const ListInput = Type.Object({
  o: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 2_147_483_647,
      description: 'offset of the first wallet (default 0)',
    }),
  ),
  n: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 2_147_483_647,
      description: 'how many wallets from `o` (default 20); at most 100 are returned',
    }),
  ),
});

export const WalletEntry = Type.Object({
  id: Type.String(),
  strategy: Type.Integer(),
  userEmail: Type.String(),
  accountHash: Type.String({ description: 'the wallet’s account address (the spec’s name)' }),
  accountAddress: Type.String({ description: 'the same address' }),
  creationTimestamp: Type.Integer({ description: 'Unix milliseconds' }),
});

export const OtpQuery = Type.Object({
  email: EmailField('the e-mail address of a strategy-3 wallet’s user'),
});

export const StrategyQuery = Type.Object({ strategy: StrategyField });

export const CustodiedMutableBody = Type.Object(
  {
    ...MutableBody.properties,
    sender: AddressField('the custodied wallet’s address (one of this application’s wallets)'),
    value: UintField('native token sent with the call, in wei (0 for none)'),
    pin: SendPinField,
  },
  { description: `Send a state-changing call from a custodied wallet. ${aliasNote}` },
);

export const CustodiedTransferInput = Type.Object(
  {
    strategy: StrategyField,
    sender: AddressField('the custodied wallet’s address (one of this application’s wallets)'),
    recipient: AddressField(),
    blockchainNetwork: ChainIdField,
    value: UintField('wei'),
    gasLimit: Type.Optional(
      UintField('maximum gas; estimated when absent (+20 %). Below the estimate → 400'),
    ),
    gasPrice: Type.Optional(
      UintField(
        'max fee per gas, in WEI here (as the spec); with nonce: accelerate or cancel a pending transfer',
      ),
    ),
    priorityFee: Type.Optional(GweiField('priority fee (tip) in GWEI')),
    nonce: Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER })),
    myReference: Type.Optional(MyReferenceField),
    pin: SendPinField,
  },
  {
    description:
      'Native transfer from a custodied wallet. `strategy` comes from the query string (`?strategy=`); in a POST it ' +
      `may also be in the body. ${aliasNote}`,
  },
);

export const SendAnswer = Type.Object({ txHash: Type.String(), nonce: Type.Integer() });
