import type { Queryable } from '../../platform/db/database.ts';
import { loadStandardContracts } from '../contract-library/standard-contracts.ts';
import { upsertStandardSpec } from './contract-specs.repository.ts';

/** Seeds (or refreshes) the standard contracts as shared specs; returns spec ids by name. */
export async function seedStandardSpecs(db: Queryable): Promise<Record<string, number>> {
  const ids: Record<string, number> = {};
  for (const contract of loadStandardContracts()) {
    ids[contract.specName] = await upsertStandardSpec(db, {
      name: contract.specName,
      description: contract.description,
      abi: contract.abi,
      bytecode: contract.bytecode,
    });
  }
  return ids;
}
