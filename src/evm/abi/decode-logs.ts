import {
  type Abi,
  type AbiEvent,
  decodeEventLog,
  getAddress,
  type Hex,
  isAddress,
  toEventSelector,
} from 'viem';
import type { JsonValue } from '../../platform/json/json-value.ts';
import { toJsonValue } from './to-json-value.ts';

export type RawLog = { address: Hex; topics: Hex[]; data: Hex };

type NamedHex = { name: string; value: Hex };

/** An indexed argument: its raw topic, and its value when the ABI types it. */
type Topic = NamedHex & { decoded?: JsonValue };

/** A non-indexed argument, decoded by the "Numbers" rule; raw hex only when the event is unknown. */
type DataEntry = { name: string; value: JsonValue };

export type DecodedLog = { address: string; name: string; topics: Topic[]; data: DataEntry[] };

function findEvent(abis: Abi[], log: RawLog): AbiEvent | undefined {
  const [signature] = log.topics;
  if (!signature) return undefined;
  for (const abi of abis) {
    for (const item of abi) {
      if (item.type !== 'event' || item.anonymous) continue;
      // Same signature with a different indexed count (ERC-20 vs ERC-721 Transfer) is another event.
      const indexedCount = item.inputs.filter((input) => input.indexed).length;
      if (indexedCount !== log.topics.length - 1) continue;
      if (toEventSelector(item).toLowerCase() !== signature.toLowerCase()) continue;
      try {
        decodeEventLog({ abi: [item], topics: log.topics as [Hex, ...Hex[]], data: log.data, strict: false });
        return item;
      } catch {}
    }
  }
  return undefined;
}

function displayAddress(address: Hex): string {
  return isAddress(address, { strict: false }) ? getAddress(address) : address;
}

function unknownLog(log: RawLog): DecodedLog {
  return {
    address: displayAddress(log.address),
    name: '',
    topics: log.topics.map((value, index) => ({ name: `topic${index}`, value })),
    data: [{ name: 'data', value: log.data }],
  };
}

/**
 * Names each receipt log's topics and data after the first of `abis` with a matching event, with the
 * values decoded (integers by the "Numbers" rule, addresses checksummed): never raw 32-byte words when
 * the ABI is known.
 */
export function decodeReceiptLogs(abis: Abi[], logs: RawLog[]): DecodedLog[] {
  return logs.map((log) => {
    const event = findEvent(abis, log);
    if (!event) return unknownLog(log);
    const { args } = decodeEventLog({
      abi: [event],
      topics: log.topics as [Hex, ...Hex[]],
      data: log.data,
      strict: false,
    }) as { args: Record<string, unknown> | unknown[] };
    const argument = (name: string, index: number) =>
      toJsonValue(Array.isArray(args) ? args[index] : args[name]);
    const inputs = event.inputs.map((input, index) => ({ input, index, name: input.name || `arg${index}` }));
    const indexed = inputs.filter(({ input }) => input.indexed);
    const topics: Topic[] = log.topics.map((value, position) => {
      if (position === 0) return { name: 'signature', value };
      const entry = indexed[position - 1];
      if (!entry) return { name: `arg${position}`, value };
      return { name: entry.name, value, decoded: argument(entry.name, entry.index) };
    });
    return {
      address: displayAddress(log.address),
      name: event.name,
      topics,
      data: inputs
        .filter(({ input }) => !input.indexed)
        .map(({ name, index }) => ({ name, value: argument(name, index) })),
    };
  });
}
