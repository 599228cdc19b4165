import { Type } from 'typebox';

const Url = (description: string) => Type.String({ minLength: 1, maxLength: 1_000_000, description });
const OptionalText = (description: string, maxLength = 10_000) =>
  Type.Optional(Type.String({ maxLength, description }));

export const MetadataAttribute = Type.Object(
  {
    trait_type: Type.String({ maxLength: 1000, description: 'trait name' }),
    value: Type.Unknown({ description: 'trait value (any JSON); a number when `max_value` is given' }),
    max_value: Type.Optional(Type.Integer({ description: 'maximum the trait can reach' })),
    display_type: Type.Optional(
      Type.Union([Type.Literal('number'), Type.Literal('boost_percentage'), Type.Literal('boost_number')], {
        description: 'only on integer values',
      }),
    ),
  },
  { additionalProperties: false },
);

/** The NFT metadata document of document 2's Resources table. */
export const MetadataDocumentBody = Type.Object(
  {
    name: Type.String({ maxLength: 10_000, description: 'NFT name' }),
    image: Url('absolute URL of the media file (e.g. the `hash` the file upload answered)'),
    description: Type.String({ maxLength: 100_000 }),
    edition: OptionalText('informational edition'),
    external_url: Type.Optional(Url('absolute URL of an external page')),
    animation_url: Type.Optional(Url('absolute URL of an animation such as a video')),
    attributes: Type.Optional(Type.Array(MetadataAttribute, { maxItems: 10_000 })),
    data: Type.Optional(Type.Unknown({ description: 'free, valid JSON for custom data' })),
  },
  {
    additionalProperties: false,
    description:
      'An NFT metadata document. Rules beyond the types: `image`, `external_url` and `animation_url` are ' +
      'absolute URLs; an attribute with `max_value` has a numeric `value`; `display_type` (number, ' +
      'boost_percentage, boost_number) only goes with an integer `value`. Other fields are refused: put ' +
      'custom data under `data`. The document is stored as sent, without the optional fields sent as null.',
  },
);

export const UploadAnswer = Type.Object({
  hash: Type.String({ description: 'URL of the upload on the gateway' }),
  url: Type.String({ description: 'the same URL (a name some clients read)' }),
  cid: Type.String({ description: 'the CID (CIDv0, as `ipfs add` prints it)' }),
});

export const MetadataAnswer = Type.Object({
  IpfsHash: Type.String({ description: 'URL of the document on the gateway' }),
  PinSize: Type.Integer({ description: 'length of the stored document in bytes' }),
  Timestamp: Type.String({ description: 'when it was stored (ISO 8601)' }),
  ipfsHash: Type.String({ description: 'the same as IpfsHash' }),
  pinSize: Type.Integer({ description: 'the same as PinSize' }),
  timestamp: Type.String({ description: 'the same as Timestamp' }),
  cid: Type.String({ description: 'the CID (CIDv0)' }),
});

export const UploadRecord = Type.Object({
  cid: Type.String(),
  url: Type.String({ description: 'gateway URL' }),
  filename: Type.String(),
  kind: Type.Union([Type.Literal('file'), Type.Literal('metadata'), Type.Literal('directory')]),
  size: Type.Integer({ description: 'bytes of content (a directory: of all its files)' }),
  contentType: Type.String(),
  createdAt: Type.String({ description: 'ISO 8601' }),
});

export const UploadPageQuery = Type.Object(
  {
    page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: '1-based page number' }),
    pageSize: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  },
  { additionalProperties: false },
);

export const UploadPage = Type.Object({
  files: Type.Array(UploadRecord),
  page: Type.Integer(),
  pageSize: Type.Integer(),
  total: Type.Integer({ description: 'uploads of the application in all' }),
});

export const CidParams = Type.Object({ cid: Type.String({ minLength: 1, maxLength: 200 }) });

export const UnpinAnswer = Type.Object({
  cid: Type.String(),
  removed: Type.Integer({ description: 'uploads of this CID by the application that were removed' }),
});
