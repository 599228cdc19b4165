import type { Abi, Hex } from 'viem';

export interface ContractArtifact {
  specName: string;
  contractName: string;
  abi: Abi;
  bytecode: Hex;
  compiler: {
    version: string;
    evmVersion: string;
    optimizerRuns: number;
  };
}

/** The exact text of `contracts/artifacts/<specName>.json`, so rebuilds are byte-for-byte comparable. */
export function serializeArtifact(artifact: ContractArtifact): string {
  return `${JSON.stringify(artifact, null, 2)}\n`;
}

export interface LibraryContract {
  specName: string;
  /** Source file name inside `contracts/src/`. */
  sourceFile: string;
  contractName: string;
  /** One sentence shown to API users choosing a shared spec. */
  description: string;
}

export const libraryContracts: readonly LibraryContract[] = [
  {
    specName: 'ERC20',
    sourceFile: 'ERC20.sol',
    contractName: 'ChaingateERC20',
    description:
      'Fixed-supply ERC-20 token with 18 decimals that mints initialSupply whole tokens to the deployer and supports increaseAllowance/decreaseAllowance.',
  },
  {
    specName: 'ERC721',
    sourceFile: 'ERC721.sol',
    contractName: 'ChaingateERC721',
    description:
      'Owner-minted ERC-721 NFT collection with per-token IPFS metadata URIs, unique IPFS hashes and per-token ERC-2981 royalties paid to the recipient.',
  },
  {
    specName: 'ERC1155',
    sourceFile: 'ERC1155.sol',
    contractName: 'ChaingateERC1155',
    description:
      'Owner-minted ERC-1155 multi-token collection with per-id JSON metadata under a base URI and a collection-wide ERC-2981 royalty.',
  },
  {
    specName: 'POAP',
    sourceFile: 'POAP.sol',
    contractName: 'ChaingatePOAP',
    description:
      'ERC-1155 proof-of-attendance badges pre-minted to the deployer that only accounts with MINTER_ROLE can mint or transfer.',
  },
];
