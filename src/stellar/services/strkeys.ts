import { StrKey } from '@stellar/stellar-sdk';
import { ChaingateError, quote } from '../../platform/errors/chaingate-error.ts';

/** A G… account whose checksum holds (the schema checks the shape only). */
export function checkAccount(value: string, field: string): string {
  if (!StrKey.isValidEd25519PublicKey(value))
    throw new ChaingateError(
      'CG_ERR_VALIDATION',
      `${field}: ${quote(value)} is not a valid account (G…, checksum)`,
    );
  return value;
}

/** A C… contract address whose checksum holds. */
export function checkContract(value: string, field: string): string {
  if (!StrKey.isValidContract(value))
    throw new ChaingateError(
      'CG_ERR_VALIDATION',
      `${field}: ${quote(value)} is not a valid contract address (C…, checksum)`,
    );
  return value;
}
