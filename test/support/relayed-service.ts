import { type AnvilInstance, startAnvil } from './anvil.ts';
import { externalNetworkEnv, networkConfigFile } from './external-network.ts';
import {
  askNode,
  type JsonRpcServer,
  type RpcAnswer,
  type RpcItem,
  serveJsonRpc,
} from './json-rpc-server.ts';
import { startTestService, type TestService } from './service.ts';

export type RelayedService = {
  anvil: AnvilInstance;
  relay: JsonRpcServer;
  service: TestService;
  /** Stops the service, the relay and anvil, in that order. */
  close(): Promise<void>;
};

/**
 * An anvil, a JSON-RPC relay in front of it that answers every call with `handle` (`forward` asks
 * anvil), and a service whose only network is chain 31337 at the relay (`network` adds to its
 * configuration, `env` to its environment): how a test plays a node that answers otherwise than anvil.
 */
export async function startRelayedService(
  handle: (item: RpcItem, forward: (item: RpcItem) => Promise<RpcAnswer>) => Promise<RpcAnswer>,
  options: { blockTime?: number; network?: Record<string, unknown>; env?: Record<string, string> } = {},
): Promise<RelayedService> {
  const anvil = await startAnvil({ blockTime: options.blockTime ?? 0.3 });
  const forward = (item: RpcItem) => askNode(anvil.rpcUrl, item);
  const relay = await serveJsonRpc((item) => handle(item, forward));
  const service = await startTestService({
    ...externalNetworkEnv(networkConfigFile(relay.url, options.network)),
    ...options.env,
  });
  return {
    anvil,
    relay,
    service,
    close: async () => {
      await service.close();
      await relay.close();
      await anvil.stop();
    },
  };
}
