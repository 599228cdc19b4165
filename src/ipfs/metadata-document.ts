import { ChaingateError } from '../platform/errors/chaingate-error.ts';

export type MetadataAttribute = {
  trait_type: string;
  value: unknown;
  max_value?: number | bigint | null;
  display_type?: 'number' | 'boost_percentage' | 'boost_number' | null;
};

export type MetadataDocument = {
  name: string;
  image: string;
  description: string;
  edition?: string | null;
  external_url?: string | null;
  animation_url?: string | null;
  attributes?: MetadataAttribute[] | null;
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
 * `max_value` has a numeric `value`, and `display_type` only goes with integer values. Answers the
 * document as it is stored: optional fields sent as `null` are left out.
 */
export function checkMetadataDocument(document: MetadataDocument): Record<string, unknown> {
  for (const field of urlFields) {
    const value = document[field];
    if (value === undefined || value === null) continue;
    if (!URL.canParse(value))
      throw invalid(field, 'must be an absolute URL (e.g. the upload answer’s `hash`)');
  }
  const attributes = document.attributes ?? [];
  attributes.forEach((attribute, index) => {
    const at = `attributes.${index}`;
    if (attribute.value === null || attribute.value === undefined) {
      throw invalid(`${at}.value`, 'is required');
    }
    const hasMax = attribute.max_value !== undefined && attribute.max_value !== null;
    if (hasMax && !isNumber(attribute.value)) {
      throw invalid(`${at}.value`, 'must be a number when max_value is given');
    }
    const hasDisplay = attribute.display_type !== undefined && attribute.display_type !== null;
    if (hasDisplay && !isInteger(attribute.value)) {
      throw invalid(
        `${at}.value`,
        `must be an integer when display_type is given (${attribute.display_type})`,
      );
    }
  });
  return withoutNulls(document) as Record<string, unknown>;
}

/** Drops `null` optional fields at the top and in attributes (the contract: `null` means absent). */
function withoutNulls(document: MetadataDocument): unknown {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) {
    if (value === null && key !== 'name' && key !== 'image' && key !== 'description') continue;
    out[key] =
      key === 'attributes' && Array.isArray(value)
        ? value.map((attribute: Record<string, unknown>) =>
            Object.fromEntries(
              Object.entries(attribute).filter(([name, item]) => item !== null || name === 'value'),
            ),
          )
        : value;
  }
  return out;
}

const BIGINT_MARK = '\u0000bigint:';

/** JSON text of the document; integers parsed as `bigint` keep every digit. */
export function metadataJson(document: Record<string, unknown>): string {
  const text = JSON.stringify(document, (_key, value) =>
    typeof value === 'bigint' ? `${BIGINT_MARK}${value}` : value,
  );
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}
