import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../src/platform/repo-root.ts';
import { apiClient, waitForFinalStatus } from '../support/api-client.ts';
import { startTestService, type TestService } from '../support/service.ts';

/**
 * Application A uploads a private spec and deploys it; application B must not learn its function
 * names nor use its ABI through any lookup by address, and must not see A's records.
 */
let service: TestService;
let a: ReturnType<typeof apiClient>;
let b: ReturnType<typeof apiClient>;
let bSender: string;
let privateSpecId: number;
let contract: string;
let deployHash: string;

const erc20 = JSON.parse(readFileSync(join(repoRoot(), 'contracts/artifacts/ERC20.json'), 'utf8'));
const secret = {
  type: 'function',
  name: 'secretRecipe',
  inputs: [],
  outputs: [{ type: 'uint256' }],
  stateMutability: 'view',
};
const holder = '0x000000000000000000000000000000000000bEEF';

beforeAll(async () => {
  service = await startTestService({ CHAINGATE_SOROBAN: '0' });
  a = apiClient(service.url, service.auth);
  const admin = apiClient(service.url, { authorization: `Bearer ${service.credentials.adminToken}` });
  const created = (await admin('POST', '/admin/v1/applications', { name: 'other', plan: 'premium' })).body;
  b = apiClient(service.url, {
    authorization: `Bearer ${created.apiKey}`,
    'x-application-svc': created.applicationId,
  });
  bSender = created.sender;
  const uploaded = await a('POST', '/core/v1/evm/info/specs', {
    name: 'Private',
    abi: [...erc20.abi, secret],
    bytecode: erc20.bytecode,
  });
  privateSpecId = uploaded.body.id;
  const deployed = await a('POST', '/core/v1/evm/contract/deploy', {
    contractSpecsId: privateSpecId,
    sender: service.credentials.sender,
    blockchainNetwork: 31337,
    params: ['Private', 'PRV', 10],
    myReference: 'privateDeploy',
  });
  contract = deployed.body.contractAddress;
  deployHash = deployed.body.txHash;
  await waitForFinalStatus(a, deployHash);
});
afterAll(async () => service?.close());

describe('every lookup by address from another application', () => {
  it('the owner uses its own spec by address', async () => {
    const owner = await a('POST', '/core/v1/evm/transact/view', {
      contractAddress: contract,
      blockchainNetwork: 31337,
      method: 'totalSupply',
      params: [],
    });
    expect(owner.status).toBe(200);
  });

  it('view: a bogus method does not list the private functions, and a real one is not callable', async () => {
    for (const method of ['bogus', 'secretRecipe', 'totalSupply']) {
      const answer = await b('POST', '/core/v1/evm/transact/view', {
        contractAddress: contract,
        blockchainNetwork: 31337,
        method,
        params: [],
      });
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('CG_ERR_UNKNOWN_CONTRACT');
      expect(answer.body.message).toContain('pass contractSpecsId');
      expect(answer.text).not.toContain('secretRecipe');
      expect(answer.text).not.toContain('transferFrom');
    }
  });

  it('mutable, both estimates: refused before anything is signed', async () => {
    const mutable = await b('POST', '/core/v1/evm/transact/mutable', {
      contractAddress: contract,
      sender: bSender,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [holder, 1],
      myReference: 'leak',
    });
    expect(mutable.status).toBe(400);
    expect(mutable.body.code).toBe('CG_ERR_UNKNOWN_CONTRACT');
    expect((await b('GET', '/core/v1/evm/info/transaction/reference/leak')).body.info).toEqual([]);
    const estimate = await b('POST', '/core/v1/evm/transact/mutable/estimategas', {
      contractAddress: contract,
      sender: bSender,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [holder, 1],
    });
    expect(estimate.body.code).toBe('CG_ERR_UNKNOWN_CONTRACT');
    const deploy = await b('POST', '/core/v1/evm/contract/deploy/estimategas', {
      contractSpecsId: privateSpecId,
      sender: bSender,
      blockchainNetwork: 31337,
      params: ['x', 'y', 1],
    });
    expect(deploy.status).toBe(400);
    expect(deploy.body.code).toBe('CG_ERR_UNKNOWN_SPEC');
  });

  it("naming the private spec's id is refused everywhere", async () => {
    const view = await b('POST', '/core/v1/evm/transact/view', {
      contractAddress: contract,
      contractSpecsId: privateSpecId,
      blockchainNetwork: 31337,
      method: 'totalSupply',
      params: [],
    });
    expect(view.body.code).toBe('CG_ERR_UNKNOWN_SPEC');
    expect((await b('GET', `/core/v1/evm/info/specs/${privateSpecId}`)).status).toBe(404);
    expect((await b('GET', '/core/v1/evm/info/specs')).body.map((s: { id: number }) => s.id)).not.toContain(
      privateSpecId,
    );
    const info = await b(
      'GET',
      `/core/v1/evm/info/transaction/${deployHash}?network=31337&contractSpecsId=${privateSpecId}`,
    );
    expect(info.body.code).toBe('CG_ERR_UNKNOWN_SPEC');
  });

  it("transaction information of A's transaction decodes nothing from A's spec; its status and reference are A's", async () => {
    const sent = await a('POST', '/core/v1/evm/transact/mutable', {
      contractAddress: contract,
      sender: service.credentials.sender,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [holder, 2],
    });
    await waitForFinalStatus(a, sent.body.txHash);
    const info = await b('GET', `/core/v1/evm/info/transaction/${sent.body.txHash}?network=31337`);
    expect(info.status).toBe(200);
    expect(info.text).not.toContain('secretRecipe');
    expect(
      (await b('GET', `/core/v1/evm/info/transaction/${sent.body.txHash}/status?network=31337`)).status,
    ).toBe(404);
    expect((await b('GET', '/core/v1/evm/info/transaction/reference/privateDeploy')).body.info).toEqual([]);
    expect((await a('GET', '/core/v1/evm/info/transaction/reference/privateDeploy')).body.info).toHaveLength(
      1,
    );
  });

  it("another application's sender is never signed with", async () => {
    const answer = await b('POST', '/core/v1/evm/transact/mutable', {
      contractAddress: contract,
      contractSpecsId: 1,
      sender: service.credentials.sender,
      blockchainNetwork: 31337,
      method: 'transfer',
      params: [holder, 1],
    });
    expect(answer.status).toBe(403);
    expect(answer.body.code).toBe('CG_ERR_UNKNOWN_SENDER');
  });
});

it('a shared standard deployed by one application is usable by address by another (its spec is public)', async () => {
  const specs = (await b('GET', '/core/v1/evm/info/specs')).body;
  const erc20Id = specs.find((s: { name: string }) => s.name === 'ERC20').id;
  const deployed = await b('POST', '/core/v1/evm/contract/deploy', {
    contractSpecsId: erc20Id,
    sender: bSender,
    blockchainNetwork: 31337,
    params: ['Shared', 'SHR', 3],
  });
  await waitForFinalStatus(b, deployed.body.txHash);
  const viewed = await a('POST', '/core/v1/evm/transact/view', {
    contractAddress: deployed.body.contractAddress,
    blockchainNetwork: 31337,
    method: 'symbol',
    params: [],
  });
  expect(viewed.body).toEqual(['SHR']);
});
