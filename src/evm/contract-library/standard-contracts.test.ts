import {
  type Abi,
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PrivateKeyAccount,
  type PublicClient,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnvilInstance, startAnvil } from '../../../test/support/anvil.ts';
import { loadStandardContracts, type StandardContract } from './standard-contracts.ts';

// Anvil's well-known default dev keys (accounts #0 and #1); they hold test ETH only.
const deployer = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
const other = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86ae88c7b0d00bf8e1c5ed3d2b0b');
const third: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

const ONE_TOKEN = 10n ** 18n;

let anvil: AnvilInstance;
let publicClient: PublicClient;
let contracts: Map<string, StandardContract>;

beforeAll(async () => {
  anvil = await startAnvil();
  publicClient = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) });
  contracts = new Map(loadStandardContracts().map((c) => [c.specName, c]));
});

afterAll(async () => {
  await anvil?.stop();
});

function spec(specName: string): StandardContract {
  const contract = contracts.get(specName);
  if (!contract) throw new Error(`missing standard contract ${specName}`);
  return contract;
}

function walletFor(account: PrivateKeyAccount) {
  return createWalletClient({ account, chain: foundry, transport: http(anvil.rpcUrl) });
}

async function deploy(specName: string, args: unknown[]): Promise<Address> {
  const { abi, bytecode } = spec(specName);
  const hash = await walletFor(deployer).deployContract({ abi, bytecode, args });
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error(`${specName} deployment produced no address`);
  return receipt.contractAddress;
}

/** A bound view of one deployed contract, so the tests read like calls on the contract. */
function bind(specName: string, address: Address) {
  const abi: Abi = spec(specName).abi;
  return {
    read: (functionName: string, args: unknown[] = []) =>
      publicClient.readContract({ address, abi, functionName, args }) as Promise<unknown>,
    write: async (functionName: string, args: unknown[], account: PrivateKeyAccount = deployer) => {
      // Simulating first surfaces reverts as decoded custom errors instead of a mined failed tx.
      const { request } = await publicClient.simulateContract({ address, abi, functionName, args, account });
      const hash: Hex = await walletFor(account).writeContract(request);
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
    },
  };
}

async function expectRevert(action: Promise<unknown>, errorName: string): Promise<void> {
  const error = await action.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, `expected revert with ${errorName}`).toBeInstanceOf(BaseError);
  const reverted = (error as BaseError).walk((e) => e instanceof ContractFunctionRevertedError);
  expect((reverted as ContractFunctionRevertedError | null)?.data?.errorName).toBe(errorName);
}

describe('loadStandardContracts', () => {
  it('loads every spec with a description, abi and bytecode', () => {
    const loaded = loadStandardContracts();
    expect(loaded.map((c) => c.specName)).toEqual(['ERC20', 'ERC721', 'ERC1155', 'POAP']);
    for (const contract of loaded) {
      expect(contract.description).toMatch(/\.$/);
      expect(contract.bytecode).toMatch(/^0x[0-9a-f]+$/);
      expect(contract.abi.some((item) => item.type === 'constructor')).toBe(true);
    }
  });
});

describe('ERC20', () => {
  it('mints the scaled supply to the deployer and adjusts allowances', async () => {
    const token = bind('ERC20', await deploy('ERC20', ['Gate Token', 'GATE', 1000n]));

    expect(await token.read('decimals')).toBe(18);
    expect(await token.read('totalSupply')).toBe(1000n * ONE_TOKEN);
    expect(await token.read('balanceOf', [deployer.address])).toBe(1000n * ONE_TOKEN);

    await token.write('increaseAllowance', [other.address, 50n]);
    await token.write('increaseAllowance', [other.address, 25n]);
    expect(await token.read('allowance', [deployer.address, other.address])).toBe(75n);
    await token.write('decreaseAllowance', [other.address, 70n]);
    expect(await token.read('allowance', [deployer.address, other.address])).toBe(5n);

    await expectRevert(token.write('decreaseAllowance', [other.address, 6n]), 'ERC20FailedDecreaseAllowance');
  });
});

describe('ERC721', () => {
  it('mints with token URI and per-token royalty, rejecting duplicates and strangers', async () => {
    const nft = bind('ERC721', await deploy('ERC721', ['Gate NFT', 'GNFT']));

    await nft.write('mint', [other.address, 1n, 'ipfs://bafy-one', 'bafy-one', 7n]);
    expect(await nft.read('ownerOf', [1n])).toBe(other.address);
    expect(await nft.read('tokenURI', [1n])).toBe('ipfs://bafy-one');
    expect(await nft.read('royaltyInfo', [1n, 10_000n])).toEqual([other.address, 700n]);

    await expectRevert(
      nft.write('mint', [other.address, 2n, 'ipfs://bafy-one', 'bafy-one', 7n]),
      'DuplicateIpfsHash',
    );
    await expectRevert(
      nft.write('mint', [other.address, 3n, 'ipfs://bafy-three', 'bafy-three', 5n], other),
      'OwnableUnauthorizedAccount',
    );
    await expectRevert(
      nft.write('mint', [other.address, 4n, 'ipfs://bafy-four', 'bafy-four', 101n]),
      'RoyaltyPercentageTooHigh',
    );

    for (const interfaceId of ['0x80ac58cd', '0x5b5e139f', '0x2a55205a', '0x49064906', '0x01ffc9a7']) {
      expect(await nft.read('supportsInterface', [interfaceId]), interfaceId).toBe(true);
    }
  });
});

describe('ERC1155', () => {
  it('serves per-id URIs, mints singly and in batches, and reports the default royalty', async () => {
    const address = await deploy('ERC1155', ['Gate Items', 'GITM', 'ipfs://bafy-base', third, 5n]);
    const items = bind('ERC1155', address);

    expect(await items.read('name')).toBe('Gate Items');
    expect(await items.read('symbol')).toBe('GITM');
    expect(await items.read('uri', [7n])).toBe('ipfs://bafy-base/7.json');

    await items.write('mint', [other.address, 7n, 10n]);
    await items.write('mintBatch', [other.address, [1n, 2n], [3n, 4n]]);
    expect(
      await items.read('balanceOfBatch', [
        [other.address, other.address, other.address],
        [7n, 1n, 2n],
      ]),
    ).toEqual([10n, 3n, 4n]);
    expect(await items.read('royaltyInfo', [7n, 1_000n])).toEqual([third, 50n]);

    await expectRevert(items.write('mint', [other.address, 7n, 1n], other), 'OwnableUnauthorizedAccount');
    for (const interfaceId of ['0xd9b67a26', '0x0e89341c', '0x2a55205a']) {
      expect(await items.read('supportsInterface', [interfaceId]), interfaceId).toBe(true);
    }
  });
});

describe('POAP', () => {
  it('pre-mints ids from amounts and only lets minters move badges', async () => {
    const poap = bind('POAP', await deploy('POAP', ['Gate Summit', 'ipfs://bafy-poap', [5n, 3n]]));

    expect(await poap.read('name')).toBe('Gate Summit');
    expect(await poap.read('uri', [2n])).toBe('ipfs://bafy-poap/2.json');
    expect(await poap.read('balanceOf', [deployer.address, 1n])).toBe(5n);
    expect(await poap.read('balanceOf', [deployer.address, 2n])).toBe(3n);

    await poap.write('transfer', [other.address, 1n]);
    expect(await poap.read('balanceOf', [deployer.address, 1n])).toBe(4n);
    expect(await poap.read('balanceOf', [other.address, 1n])).toBe(1n);

    await expectRevert(poap.write('transfer', [third, 1n], other), 'TransferNotAllowed');
    await expectRevert(
      poap.write('safeTransferFrom', [other.address, third, 1n, 1n, '0x'], other),
      'TransferNotAllowed',
    );
    await expectRevert(
      poap.write('mint', [other.address, 1n, 1n], other),
      'AccessControlUnauthorizedAccount',
    );

    await poap.write('mint', [other.address, 3n, 2n]);
    expect(await poap.read('balanceOf', [other.address, 3n])).toBe(2n);
  });
});
