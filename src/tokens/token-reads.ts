import type { Application } from '../applications/applications.service.ts';
import type { EvmContext } from '../evm/services/evm-context.ts';
import { ChaingateError } from '../platform/errors/chaingate-error.ts';
import { readToken } from './read-token.ts';
import { openTokenContract, requireMined } from './token-contract.ts';
import { standardWithArticle, type TokenStandard, tokenAbi } from './token-standards.ts';

export type ReadTokenValueParameters = {
  application: Application;
  chainId: number;
  contractAddress: string;
  /** Standards the endpoint serves; the first names it in messages. */
  accepts: readonly TokenStandard[];
  functionName: string;
  args?: readonly unknown[];
  /** Names the token of a call that reverts because it does not exist (`id`, `tokenId`). */
  tokenIdField?: string;
};

const missingTokenErrors = new Set(['ERC721NonexistentToken']);

/**
 * One view of a token endpoint: the contract checked for its standard, one `eth_call`, the result
 * decoded with the standard ABI. A revert is a 400 with the decoded reason, never a 500.
 */
export async function readTokenValue<T>(
  context: EvmContext,
  parameters: ReadTokenValueParameters,
): Promise<T> {
  const contract = await openTokenContract(context, parameters);
  requireMined(contract);
  const answer = await readToken<T>(contract.network, {
    address: contract.address,
    abi: tokenAbi(contract.standard),
    functionName: parameters.functionName,
    args: parameters.args ?? [],
  });
  if (answer.kind === 'value') return answer.value;
  if (answer.kind === 'reverted') {
    const reason = answer.reason;
    if (reason?.errorName && missingTokenErrors.has(reason.errorName) && parameters.tokenIdField) {
      throw new ChaingateError(
        'CG_ERR_NONEXISTENT_TOKEN',
        `${parameters.tokenIdField}: no token ${String(parameters.args?.[0])} exists on ${contract.address}`,
      );
    }
    throw new ChaingateError(
      'ERROR_EXECUTION_REVERTED',
      `${parameters.functionName} reverted${reason ? `: ${reason.reason}` : ''}`,
    );
  }
  throw new ChaingateError(
    'CG_ERR_WRONG_TOKEN_STANDARD',
    `contractAddress ${contract.address} does not answer ${parameters.functionName} as ${standardWithArticle(parameters.accepts[0] as TokenStandard)} contract`,
  );
}
