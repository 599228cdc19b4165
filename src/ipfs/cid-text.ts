import { base32 } from 'multiformats/bases/base32';
import { base36 } from 'multiformats/bases/base36';
import { base58btc } from 'multiformats/bases/base58';
import { CID } from 'multiformats/cid';
import { ChaingateError, quote } from '../platform/errors/chaingate-error.ts';

const DAG_PB = 0x70;
const SHA2_256 = 0x12;
/** Longest CID text accepted (a CIDv1 with a 64-byte digest in base32 is ~115 characters). */
const MAX_CID_TEXT = 200;

/**
 * Parses a CID as a gateway or a client writes it: CIDv0 (`Qm…`) or CIDv1 in base32 (`b…`), base36
 * (`k…`) or base58btc (`z…`). Anything else is a 400 naming `field`.
 */
export function parseCid(text: string, field: string): CID {
  const malformed = () =>
    new ChaingateError('CG_ERR_BAD_REQUEST', `${field}: ${quote(text)} is not a valid CID`, {
      context: { field },
    });
  if (text.length === 0 || text.length > MAX_CID_TEXT) throw malformed();
  try {
    if (text.startsWith('Q')) return CID.parse(text);
    if (text.startsWith('k')) return CID.parse(text, base36);
    if (text.startsWith('z')) return CID.parse(text, base58btc);
    return CID.parse(text, base32);
  } catch {
    throw malformed();
  }
}

/**
 * The key a block is stored under: its multihash, so that the CIDv0 and every CIDv1 form of one
 * DAG find the same blocks. Base32 without its multibase prefix: file-name safe and case-insensitive.
 */
export function blockKey(cid: CID): string {
  return base32.encode(cid.multihash.bytes).slice(1);
}

/**
 * The form uploads are recorded and answered in: CIDv0 for a dag-pb node hashed with sha2-256 (what
 * `ipfs add` prints), the CID as given otherwise.
 */
export function canonicalCid(cid: CID): string {
  if (cid.code === DAG_PB && cid.multihash.code === SHA2_256) return cid.toV0().toString();
  return cid.toString();
}
