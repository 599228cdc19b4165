import { Type } from 'typebox';
import { PinField, StrategyField } from '../wallets.schemas.ts';

const HashField = Type.String({
  minLength: 1,
  maxLength: 128,
  description: 'the hash from `POST /cwll/v1/hash/new` (the page’s `?hash=`)',
});
const UsernameField = Type.String({
  minLength: 1,
  maxLength: 254,
  description: 'the user’s e-mail address the hash was made for (the page’s `?username=`)',
});

export const HashParams = Type.Object({ hash: HashField });
export const HashQuery = Type.Object({ username: UsernameField });

export const HashInfo = Type.Object({
  state: Type.Union([Type.Literal('open'), Type.Literal('expired'), Type.Literal('used')], {
    description: '`open`: a wallet can be created; `expired` or `used`: show the way back (`fallbackUrl`)',
  }),
  username: Type.String(),
  strategies: Type.Array(Type.Integer(), { description: 'the strategies the customer allows' }),
  expirationTime: Type.Integer({ description: 'Unix seconds' }),
  fallbackUrl: Type.String(),
  cancelUrl: Type.String(),
});

export const SetupBody = Type.Object(
  { hash: HashField, username: UsernameField, strategy: StrategyField },
  { additionalProperties: false },
);

export const SetupAnswer = Type.Object({
  otpauthUri: Type.Optional(Type.String({ description: 'strategy 2: the URI for an authenticator app' })),
  secret: Type.Optional(
    Type.String({ description: 'strategy 2: the same secret in base32, to type in by hand' }),
  ),
  qrSvg: Type.Optional(Type.String({ description: 'strategy 2: the URI as a QR code, an SVG document' })),
});

export const ConfirmBody = Type.Object(
  {
    hash: HashField,
    username: UsernameField,
    strategy: StrategyField,
    pin: PinField(
      'strategy 1: the PIN the user chose (4 to 12 digits); 2: the current code of the authenticator app; 3: the e-mailed code',
    ),
  },
  { additionalProperties: false },
);

export const ConfirmAnswer = Type.Object({ accountAddress: Type.String() });
