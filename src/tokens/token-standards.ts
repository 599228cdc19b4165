import type { Abi } from 'viem';
import { loadStandardContracts } from '../evm/contract-library/standard-contracts.ts';

/** The token standards of the token APIs; each is also the name of the shared spec that deploys it. */
export const tokenStandards = ['ERC20', 'ERC721', 'ERC1155', 'POAP'] as const;
export type TokenStandard = (typeof tokenStandards)[number];

/** How messages and the OpenAPI document name a standard. */
export const standardLabels: Record<TokenStandard, string> = {
  ERC20: 'ERC-20',
  ERC721: 'ERC-721',
  ERC1155: 'ERC-1155',
  POAP: 'POAP',
};

/** "an ERC-20", "a POAP": for messages. */
export function standardWithArticle(standard: TokenStandard): string {
  return `${standard === 'POAP' ? 'a' : 'an'} ${standardLabels[standard]}`;
}

/** The path segment of a standard under `/erc/v1`. */
export const standardPaths: Record<TokenStandard, string> = {
  ERC20: 'erc20',
  ERC721: 'erc721',
  ERC1155: 'erc1155',
  POAP: 'poap',
};

export function isTokenStandard(name: string | null | undefined): name is TokenStandard {
  return (tokenStandards as readonly (string | null | undefined)[]).includes(name);
}

let abis: Record<TokenStandard, Abi> | undefined;

/** The ABI of the standard contract the token APIs deploy and call (the committed artifacts). */
export function tokenAbi(standard: TokenStandard): Abi {
  if (!abis) {
    const byName = new Map(loadStandardContracts().map((contract) => [contract.specName, contract.abi]));
    abis = Object.fromEntries(
      tokenStandards.map((name) => {
        const abi = byName.get(name);
        if (!abi) throw new Error(`no standard contract artifact named ${name}`);
        return [name, abi];
      }),
    ) as Record<TokenStandard, Abi>;
  }
  return abis[standard];
}
