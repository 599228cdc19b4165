import type { FastifyInstance } from 'fastify';
import { erc1155ReadRoutes } from './erc1155.routes.ts';
import { PoapDeployBody, PoapTransferBody } from './poap.schemas.ts';
import { deployPoap, transferPoap } from './poap.service.ts';
import { tokenDeployRoute, tokenSendRoute } from './token-route.ts';

const tags = ['tokens: POAP'];

export async function poapRoutes(app: FastifyInstance): Promise<void> {
  tokenDeployRoute(
    app,
    '/poap/deploy',
    { tags, summary: 'Deploy a POAP contract with its badges minted to the signer', input: PoapDeployBody },
    (body, base) => deployPoap(app.evm, { ...body, ...base }),
  );

  tokenSendRoute(
    app,
    '/poap/transfer',
    {
      tags,
      summary: 'Hand one badge from the signer (who must hold the minter role) to `to`',
      input: PoapTransferBody,
      codes: ['CG_ERR_NOT_MINTER'],
    },
    (body, base) => transferPoap(app.evm, { ...body, ...base }),
  );

  erc1155ReadRoutes(app, {
    path: 'poap',
    tags,
    accepts: ['POAP'],
    note: 'POAP; `/poap/tokenUri` is beyond the spec, which reads it on `/erc1155/tokenUri` (both work)',
  });
}
