import {
  type Abi,
  type AbiEvent,
  type AbiParameter,
  decodeEventLog,
  getAddress,
  type Hex,
  isAddress,
  toEventSelector,
} from 'viem';

export type RawLog = { address: Hex; topics: Hex[]; data: Hex };

type NamedHex = { name: string; value: Hex };

export type DecodedLog = { address: string; name: string; topics: NamedHex[]; data: NamedHex[] };

/** Bytes a static type takes in the head of an ABI encoding; `undefined` for dynamic types. */
function staticSize(param: AbiParameter): number | undefined {
  const array = /^(.*)\[(\d*)\]$/.exec(param.type);
  if (array) {
    if (array[2] === '') return undefined;
    const element = staticSize({ ...param, type: array[1] as string } as AbiParameter);
    return element === undefined ? undefined : element * Number(array[2]);
  }
  if (param.type === 'string' || param.type === 'bytes') return undefined;
  if (param.type === 'tuple') {
    let total = 0;
    for (const component of 'components' in param ? param.components : []) {
      const size = staticSize(component);
      if (size === undefined) return undefined;
      total += size;
    }
    return total;
  }
  return 32;
}

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
 * Data entries are slices of the raw encoding: a static param gets its own head word(s). A dynamic
 * param's head word is only an offset into the tail, so it gets the whole `data` hex instead, which is
 * the smallest slice a client can decode it from.
 */
function dataEntries(event: AbiEvent, data: Hex): NamedHex[] {
  const body = data.slice(2);
  let offset = 0;
  return event.inputs
    .map((input, index) => ({ input, index }))
    .filter(({ input }) => !input.indexed)
    .map(({ input, index }) => {
      const name = input.name || `arg${index}`;
      const size = staticSize(input);
      if (size === undefined) {
        offset += 32;
        return { name, value: data };
      }
      const value = `0x${body.slice(offset * 2, (offset + size) * 2)}` as Hex;
      offset += size;
      return { name, value };
    });
}

/** Names each receipt log's topics and data after the first of `abis` with a matching event. */
export function decodeReceiptLogs(abis: Abi[], logs: RawLog[]): DecodedLog[] {
  return logs.map((log) => {
    const event = findEvent(abis, log);
    if (!event) return unknownLog(log);
    const indexed = event.inputs
      .map((input, index) => ({ input, index }))
      .filter(({ input }) => input.indexed);
    const topics: NamedHex[] = log.topics.map((value, position) => {
      if (position === 0) return { name: 'signature', value };
      const entry = indexed[position - 1];
      return { name: entry?.input.name || `arg${entry?.index ?? position}`, value };
    });
    return {
      address: displayAddress(log.address),
      name: event.name,
      topics,
      data: dataEntries(event, log.data),
    };
  });
}
