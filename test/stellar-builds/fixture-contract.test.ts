import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { envMetaPayload, rustBytes, specPayload } from './fixtures/contract-spec.ts';
import { ADDER_PROJECT } from './support/projects.ts';

it("holds in the adder fixture's lib.rs the contractspecv0 and contractenvmetav0 bytes of its interface", () => {
  const source = readFileSync(join(ADDER_PROJECT, 'contracts/adder/src/lib.rs'), 'utf8');
  expect(source).toContain(
    `pub static CONTRACT_SPEC: [u8; ${specPayload().length}] = [\n${rustBytes(specPayload())}\n];`,
  );
  expect(source).toContain(
    `pub static CONTRACT_ENV_META: [u8; ${envMetaPayload().length}] = [\n${rustBytes(envMetaPayload())}\n];`,
  );
});
