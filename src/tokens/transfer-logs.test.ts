import { type Address, encodeAbiParameters, encodeEventTopics, type Hex, zeroAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { tokenAbi } from './token-standards.ts';
import { balanceDeltas, type RawTransferLog, transferTopics } from './transfer-logs.ts';

const alice = '0x00000000000000000000000000000000000a11ce' as Address;
const bob = '0x0000000000000000000000000000000000000b0b' as Address;

function erc20Transfer(from: Address, to: Address, value: bigint): RawTransferLog {
  const topics = encodeEventTopics({
    abi: tokenAbi('ERC20'),
    eventName: 'Transfer',
    args: { from, to },
  } as never);
  return { topics: topics as Hex[], data: encodeAbiParameters([{ type: 'uint256' }], [value]) };
}

function erc721Transfer(from: Address, to: Address, tokenId: bigint): RawTransferLog {
  const topics = encodeEventTopics({
    abi: tokenAbi('ERC721'),
    eventName: 'Transfer',
    args: { from, to, tokenId },
  } as never);
  return { topics: topics as Hex[], data: '0x' };
}

function erc1155Batch(from: Address, to: Address, ids: bigint[], values: bigint[]): RawTransferLog {
  const topics = encodeEventTopics({
    abi: tokenAbi('ERC1155'),
    eventName: 'TransferBatch',
    args: { operator: alice, from, to },
  } as never);
  return {
    topics: topics as Hex[],
    data: encodeAbiParameters([{ type: 'uint256[]' }, { type: 'uint256[]' }], [ids, values]),
  };
}

function erc1155Single(from: Address, to: Address, id: bigint, value: bigint): RawTransferLog {
  const topics = encodeEventTopics({
    abi: tokenAbi('ERC1155'),
    eventName: 'TransferSingle',
    args: { operator: alice, from, to },
  } as never);
  return {
    topics: topics as Hex[],
    data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [id, value]),
  };
}

describe('balance deltas from transfer logs', () => {
  it('nets ERC-20 mints and transfers per holder, leaving out the zero address', () => {
    const deltas = balanceDeltas('ERC20', [
      erc20Transfer(zeroAddress, alice, 1000n),
      erc20Transfer(alice, bob, 300n),
      erc20Transfer(bob, alice, 300n),
      erc20Transfer(alice, bob, 5n),
    ]);
    expect(deltas).toEqual([
      { holder: alice, tokenId: 0n, delta: 995n },
      { holder: bob, tokenId: 0n, delta: 5n },
    ]);
  });

  it('moves ERC-721 tokens one by one, and ignores a Transfer of the other layout', () => {
    const deltas = balanceDeltas('ERC721', [
      erc721Transfer(zeroAddress, alice, 7n),
      erc721Transfer(alice, bob, 7n),
      erc721Transfer(zeroAddress, alice, 8n),
      erc20Transfer(alice, bob, 1n),
    ]);
    expect(deltas).toEqual([
      { holder: bob, tokenId: 7n, delta: 1n },
      { holder: alice, tokenId: 8n, delta: 1n },
    ]);
  });

  it('reads ERC-1155 single and batch transfers, skipping removed logs', () => {
    const deltas = balanceDeltas('ERC1155', [
      erc1155Batch(zeroAddress, alice, [1n, 2n], [10n, 20n]),
      erc1155Single(alice, bob, 2n, 5n),
      { ...erc1155Single(alice, bob, 1n, 10n), removed: true },
    ]);
    expect(deltas).toEqual([
      { holder: alice, tokenId: 1n, delta: 10n },
      { holder: alice, tokenId: 2n, delta: 15n },
      { holder: bob, tokenId: 2n, delta: 5n },
    ]);
  });

  it('filters on the event selectors of each standard', () => {
    expect(transferTopics('ERC20')).toEqual(transferTopics('ERC721'));
    expect(transferTopics('POAP')).toHaveLength(2);
  });
});
