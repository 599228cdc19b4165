import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { checksumAddress } from '../evm/services/encode-contract-call.ts';
import {
  Erc20AllowanceInput,
  Erc20BalanceInput,
  Erc20ContractInput,
  Erc20DecreaseAllowanceBody,
  Erc20DeployBody,
  Erc20IncreaseAllowanceBody,
  Erc20TransferBody,
  Erc20TransferFromBody,
} from './erc20.schemas.ts';
import {
  decreaseErc20Allowance,
  deployErc20,
  increaseErc20Allowance,
  transferErc20,
  transferErc20From,
} from './erc20.service.ts';
import { UintAnswer } from './token.schemas.ts';
import { readTokenValue } from './token-reads.ts';
import { tokenDeployRoute, tokenReadRoute, tokenSendRoute } from './token-route.ts';

const tags = ['tokens: ERC-20'];
const accepts = ['ERC20'] as const;

export async function erc20Routes(app: FastifyInstance): Promise<void> {
  tokenDeployRoute(
    app,
    '/erc20/deploy',
    {
      tags,
      summary: 'Deploy an ERC-20 token; answers once the node accepted the transaction',
      input: Erc20DeployBody,
      aliases: { initualSupply: 'initialSupply' },
    },
    (body, base) => deployErc20(app.evm, { ...body, ...base }),
  );

  tokenSendRoute(
    app,
    '/erc20/transfer',
    {
      tags,
      summary: 'Transfer tokens of the signer (the application’s default sender unless `sender` is given)',
      input: Erc20TransferBody,
    },
    (body, base) => transferErc20(app.evm, { ...body, ...base }),
  );

  tokenSendRoute(
    app,
    '/erc20/transferFrom',
    {
      tags,
      summary: 'Move tokens of `sender` with the allowance it granted the signer',
      input: Erc20TransferFromBody,
      codes: ['CG_ERR_INSUFFICIENT_ALLOWANCE', 'CG_ERR_INSUFFICIENT_TOKEN_BALANCE'],
    },
    (body, base) => transferErc20From(app.evm, { ...body, ...base, owner: body.sender }),
  );

  tokenSendRoute(
    app,
    '/erc20/increaseAllowance',
    {
      tags,
      summary: 'Let `spender` move `addedValue` more of the signer’s tokens',
      input: Erc20IncreaseAllowanceBody,
    },
    (body, base) => increaseErc20Allowance(app.evm, { ...body, ...base, value: body.addedValue }),
  );

  tokenSendRoute(
    app,
    '/erc20/decreaseAllowance',
    {
      tags,
      summary: 'Take `subtractedValue` off the allowance of `spender`',
      input: Erc20DecreaseAllowanceBody,
      aliases: { substractedValue: 'subtractedValue' },
    },
    (body, base) => decreaseErc20Allowance(app.evm, { ...body, ...base, value: body.subtractedValue }),
  );

  tokenReadRoute(
    app,
    '/erc20/allowance',
    {
      tags,
      summary: 'Allowance of `spender` over the tokens of `owner`, in smallest units',
      input: Erc20AllowanceInput,
      response: UintAnswer('allowance', 'smallest units `spender` may still move'),
    },
    async (input, application) => {
      const allowance = await readTokenValue<bigint>(app.evm, {
        application,
        chainId: input.network,
        contractAddress: input.contractAddress,
        accepts,
        functionName: 'allowance',
        args: [checksumAddress(input.owner, 'owner'), checksumAddress(input.spender, 'spender')],
      });
      return { allowance, allowanceString: allowance.toString() };
    },
  );

  for (const functionName of ['name', 'symbol', 'decimals'] as const) {
    tokenReadRoute(
      app,
      `/erc20/${functionName}`,
      {
        tags,
        summary:
          functionName === 'decimals'
            ? 'Decimals of the token (18 for the standard contract)'
            : `The token’s ${functionName}`,
        input: Erc20ContractInput,
        response: Type.Object({
          [functionName]: functionName === 'decimals' ? Type.Integer() : Type.String(),
        }),
      },
      async (input, application) => ({
        [functionName]: await readTokenValue(app.evm, {
          application,
          chainId: input.network,
          contractAddress: input.contractAddress,
          accepts,
          functionName,
        }),
      }),
    );
  }

  tokenReadRoute(
    app,
    '/erc20/totalSupply',
    {
      tags,
      summary: 'Total supply in smallest units',
      input: Erc20ContractInput,
      response: UintAnswer('totalSupply', 'total supply in smallest units'),
    },
    async (input, application) => {
      const totalSupply = await readTokenValue<bigint>(app.evm, {
        application,
        chainId: input.network,
        contractAddress: input.contractAddress,
        accepts,
        functionName: 'totalSupply',
      });
      return { totalSupply, totalSupplyString: totalSupply.toString() };
    },
  );

  tokenReadRoute(
    app,
    '/erc20/balanceOf',
    {
      tags,
      summary: 'Balance of `address` in smallest units',
      description:
        'Also the grouped balance page’s ERC-20 lookup: `contract` is accepted for `contractAddress` there.',
      input: Erc20BalanceInput,
      response: UintAnswer('balance', 'balance in smallest units'),
    },
    async (input, application) => {
      const balance = await readTokenValue<bigint>(app.evm, {
        application,
        chainId: input.network,
        contractAddress: input.contractAddress,
        accepts,
        functionName: 'balanceOf',
        args: [checksumAddress(input.address, 'address')],
      });
      return { balance, balanceString: balance.toString() };
    },
  );
}
