import { readFileSync } from 'node:fs';
import { type Abi, encodeDeployData, encodeFunctionData, type Hex, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeCallInput, decodeConstructorArgs } from './decode-call-input.ts';

const erc20 = JSON.parse(
  readFileSync(new URL('../../../contracts/artifacts/ERC20.json', import.meta.url), 'utf8'),
) as {
  abi: Abi;
  bytecode: Hex;
};
const to = '0x52908400098527886E0F7030069857D2E4169EE7';

describe('decodeCallInput', () => {
  it('decodes an ERC-20 transfer', () => {
    const data = encodeFunctionData({
      abi: parseAbi(['function transfer(address,uint256)']),
      functionName: 'transfer',
      args: [to, 2n ** 70n],
    });
    expect(decodeCallInput(erc20.abi, data)).toEqual({
      function: 'transfer(address,uint256)',
      functionId: '0xa9059cbb',
      inputs: [
        { name: 'to', type: 'address', value: to },
        { name: 'value', type: 'uint256', value: 1180591620717411303424n },
      ],
    });
  });

  it('spells tuples in the signature and names unnamed inputs by position', () => {
    const abi = parseAbi(['function batch((address to, uint96 amount)[], bool)']);
    const data = encodeFunctionData({ abi, functionName: 'batch', args: [[{ to, amount: 5n }], true] });
    const decoded = decodeCallInput(abi, data);
    expect(decoded?.function).toBe('batch((address,uint96)[],bool)');
    expect(decoded?.inputs).toEqual([
      { name: 'arg0', type: '(address,uint96)[]', value: [{ to, amount: 5 }] },
      { name: 'arg1', type: 'bool', value: true },
    ]);
  });

  it('returns undefined for an unknown selector, short data or undecodable args', () => {
    expect(decodeCallInput(erc20.abi, '0x12345678')).toBeUndefined();
    expect(decodeCallInput(erc20.abi, '0xa905')).toBeUndefined();
    expect(decodeCallInput(erc20.abi, '0x')).toBeUndefined();
    expect(decodeCallInput(erc20.abi, '0xa9059cbb0000')).toBeUndefined();
  });

  it('matches the selector case-insensitively', () => {
    const data = encodeFunctionData({
      abi: parseAbi(['function approve(address,uint256)']),
      functionName: 'approve',
      args: [to, 1n],
    });
    expect(decodeCallInput(erc20.abi, data.toUpperCase().replace('0X', '0x') as Hex)?.function).toBe(
      'approve(address,uint256)',
    );
  });
});

describe('decodeConstructorArgs', () => {
  it('strips the bytecode and decodes the constructor args', () => {
    const data = encodeDeployData({
      abi: erc20.abi,
      bytecode: erc20.bytecode,
      args: ['Token', 'TKN', 10n ** 24n],
    });
    expect(decodeConstructorArgs(erc20.abi, erc20.bytecode, data)).toEqual([
      { name: 'name_', type: 'string', value: 'Token' },
      { name: 'symbol_', type: 'string', value: 'TKN' },
      { name: 'initialSupply', type: 'uint256', value: 1000000000000000000000000n },
    ]);
  });

  it('returns an empty list for a constructor-less ABI', () => {
    expect(decodeConstructorArgs([], '0x6000', '0x6000')).toEqual([]);
  });

  it('returns undefined when data does not start with the bytecode', () => {
    expect(decodeConstructorArgs(erc20.abi, '0x6001', '0x600000')).toBeUndefined();
  });
});
