import {
  Account,
  Address,
  nativeToScVal,
  Operation,
  rpc,
  StrKey,
  type Transaction,
  TransactionBuilder,
  xdr,
} from '@stellar/stellar-sdk';
import { fromStroops } from './accounts.ts';
import type { SandboxNode } from './sandbox-node.ts';

export interface FriendbotReply {
  status: number;
  body: unknown;
}

function problem(status: number, title: string, detail: string, extras?: unknown): FriendbotReply {
  return {
    status,
    body: { type: 'https://stellar.org/horizon-errors/transaction_failed', title, status, detail, extras },
  };
}

/** Accounts get a createAccount; contracts get a native-SAC transfer (as the current friendbot does). */
function fundingTx(node: SandboxNode, destination: string): Transaction | string {
  const root = node.root;
  const source = new Account(root.publicKey(), (node.nextSequence(root.publicKey()) - 1n).toString());
  const builder = new TransactionBuilder(source, {
    fee: String(node.config.baseFee),
    networkPassphrase: node.config.passphrase,
  }).setTimeout(0);
  if (StrKey.isValidEd25519PublicKey(destination)) {
    const op = Operation.createAccount({
      destination,
      startingBalance: fromStroops(node.config.friendbotStartingBalance),
    });
    const tx = builder.addOperation(op).build();
    tx.sign(root);
    return tx;
  }
  const op = Operation.invokeContractFunction({
    contract: Address.fromScAddress(node.nativeAssetAddress()).toString(),
    function: 'transfer',
    args: [
      nativeToScVal(Address.fromString(root.publicKey())),
      nativeToScVal(Address.fromString(destination)),
      nativeToScVal(node.config.friendbotStartingBalance, { type: 'i128' }),
    ],
  });
  const unsigned = builder.addOperation(op).build();
  const sim = node.simulate(unsigned.toXDR());
  if (sim.error) return `funding simulation failed: ${sim.error}`;
  const tx = rpc
    .assembleTransaction(unsigned, sim as unknown as rpc.Api.RawSimulateTransactionResponse)
    .build();
  tx.sign(root);
  return tx;
}

/** Friendbot: funds a G… account or C… contract and answers once the ledger has closed. */
export async function friendbot(
  node: SandboxNode,
  addr: string,
  closeNow?: () => Promise<number>,
): Promise<FriendbotReply> {
  const isAccount = StrKey.isValidEd25519PublicKey(addr);
  if (!isAccount && !StrKey.isValidContract(addr)) {
    return problem(400, 'Bad Request', `invalid address '${addr}': expected a G… account or C… contract`);
  }
  if (isAccount && node.accountExists(addr)) {
    return problem(400, 'Transaction Failed', 'op_already_exists: createAccountAlreadyExist', {
      result_codes: { transaction: 'tx_failed', operations: ['op_already_exists'] },
    });
  }
  const tx = fundingTx(node, addr);
  if (typeof tx === 'string') return problem(500, 'Friendbot Error', tx);
  const sent = node.submit(tx.toXDR());
  if (sent.status !== 'PENDING') {
    return problem(
      500,
      'Friendbot Error',
      `funding transaction rejected: ${sent.errorResultXdr ?? sent.status}`,
    );
  }
  let rec = node.getTx(sent.hash);
  while (!rec) {
    await (closeNow ? closeNow() : node.nextClose());
    rec = node.getTx(sent.hash);
  }
  if (rec.status !== 'SUCCESS') {
    const result = xdr.TransactionResult.fromXDR(rec.resultXdr, 'base64');
    const op = result.result().switch().name === 'txFailed' ? result.result().results()[0] : undefined;
    const code =
      op?.switch().name === 'opInner' && op.tr().switch().name === 'createAccount'
        ? op.tr().createAccountResult().switch().name
        : result.result().switch().name;
    return problem(400, 'Transaction Failed', `funding failed: ${code}`, { result_xdr: rec.resultXdr });
  }
  return {
    status: 200,
    body: {
      successful: true,
      hash: rec.hash,
      ledger: rec.ledger,
      envelope_xdr: rec.envelopeXdr,
      result_xdr: rec.resultXdr,
      result_meta_xdr: rec.resultMetaXdr,
    },
  };
}
