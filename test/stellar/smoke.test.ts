import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiClient } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';
import { deployAndWait, invokeAndWait, LOCAL, savedId } from './support/stellar-api.ts';
import { fixture } from './support/test-contracts.ts';

let service: TestService;
let call: ReturnType<typeof apiClient>;
beforeAll(async () => {
  service = await startTestService({ CHAINGATE_DEVNET: '0', LOG_LEVEL: 'error' });
  call = apiClient(service.url, service.auth);
});
afterAll(async () => service?.close());

it('smoke', async () => {
  const account = await call('GET', `/stellar/v1/account?networkId=${LOCAL}`);
  console.log(account.status, account.text);
  const id = await savedId(service.url, service.auth, fixture('add_i32.wasm'), 'add');
  const methods = await call('GET', `/stellar/v1/contract/${id}/methods`, { blockchainNetwork: LOCAL });
  console.log(methods.text);
  const address = await deployAndWait(call, id);
  const info = await invokeAndWait(call, address, 'add', [2, 3]);
  console.log(JSON.stringify(info, null, 1));
  expect(info.receipt.result).toBe(5);
});
