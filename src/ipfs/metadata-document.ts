import { ChaingateError } from '../platform/errors/chaingate-error.ts';

export type MetadataAttribute = {
  trait_type: string;
  value: unknown;
  max_value?: number | bigint;
  display_type?: 'number' | 'boost_percentage' | 'boost_number';
};

export type MetadataDocument = {
  name: string;
  image: string;
  description: string;
  edition?: string;
  external_url?: string;
  animation_url?: string;
  attributes?: MetadataAttribute[];
  data?: unknown;
};

function invalid(field: string, message: string): ChaingateError {
  return new ChaingateError('CG_ERR_VALIDATION', `body.${field} ${message}`, { context: { field } });
}

function isNumber(value: unknown): value is number | bigint {
  return (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint';
}

function isInteger(value: unknown): boolean {
  return typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value));
}

const urlFields = ['image', 'external_url', 'animation_url'] as const;

/**
 * The rules of the spec's table that a JSON schema cannot say: URLs are absolute, a trait with
 * `max_value` has a numeric `value`, and `display_type` only goes with integer values.
 */
export function checkMetadataDocument(document: MetadataDocument): void {
  for (const field of urlFields) {
    const value = document[field];
    if (value === undefined) continue;
    if (!URL.canParse(value))
      throw invalid(field, 'must be an absolute URL (e.g. the upload answer’s `hash`)');
  }
  const attributes = document.attributes ?? [];
  attributes.forEach((attribute, index) => {
    const at = `attributes.${index}`;
    if (attribute.value === null || attribute.value === undefined) {
      throw invalid(`${at}.value`, 'is required');
    }
    const hasMax = attribute.max_value !== undefined;
    if (hasMax && !isNumber(attribute.value)) {
      throw invalid(`${at}.value`, 'must be a number when max_value is given');
    }
    const hasDisplay = attribute.display_type !== undefined;
    if (hasDisplay && !isInteger(attribute.value)) {
      throw invalid(
        `${at}.value`,
        `must be an integer when display_type is given (${attribute.display_type})`,
      );
    }
  });
}

const requiredFields = new Set(['name', 'image', 'description']);

/**
 * Drops optional fields sent as `null`, at the top and in attributes (the contract: `null` means
 * absent), before the schema sees the body. Required fields stay, so a `null` one is named by the 400.
 */
export function dropNullOptionals(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
  const document = body as Record<string, unknown>;
  for (const [key, value] of Object.entries(document)) {
    if (value === null && !requiredFields.has(key)) delete document[key];
  }
  if (!Array.isArray(document.attributes)) return;
  for (const attribute of document.attributes) {
    if (typeof attribute !== 'object' || attribute === null) continue;
    for (const key of ['max_value', 'display_type'] as const) {
      if ((attribute as Record<string, unknown>)[key] === null)
        delete (attribute as Record<string, unknown>)[key];
    }
  }
}

const BIGINT_MARK = '\u0000bigint:';

/** JSON text of the document; integers parsed as `bigint` keep every digit. */
export function metadataJson(document: MetadataDocument): string {
  const text = JSON.stringify(document, (_key, value) =>
    typeof value === 'bigint' ? `${BIGINT_MARK}${value}` : value,
  );
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}
