import { encodeAbiParameters, encodeEventTopics, type Hex, pad, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { decodeReceiptLogs } from './decode-logs.ts';

const erc20 = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);
const erc721 = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
]);
const misc = parseAbi([
  'event Note(string text, uint256 indexed id, (uint8 a, uint8 b) pair, uint256[2] fixed)',
]);
const token: Hex = '0x52908400098527886e0f7030069857d2e4169ee7';
const from = '0x1111111111111111111111111111111111111111';
const to = '0x2222222222222222222222222222222222222222';

describe('decodeReceiptLogs', () => {
  it('decodes an ERC-20 Transfer', () => {
    const topics = encodeEventTopics({ abi: erc20, eventName: 'Transfer', args: { from, to } }) as Hex[];
    const data = encodeAbiParameters([{ type: 'uint256' }], [1000n]);
    const [log] = decodeReceiptLogs([erc721, erc20], [{ address: token, topics, data }]);
    expect(log).toEqual({
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      name: 'Transfer',
      topics: [
        { name: 'signature', value: topics[0] },
        { name: 'from', value: pad(from), decoded: '0x1111111111111111111111111111111111111111' },
        { name: 'to', value: pad(to), decoded: '0x2222222222222222222222222222222222222222' },
      ],
      data: [{ name: 'value', value: 1000 }],
    });
  });

  it('writes amounts beyond 2^53 as exact integers, never as raw words', () => {
    const topics = encodeEventTopics({ abi: erc20, eventName: 'Transfer', args: { from, to } }) as Hex[];
    const data = encodeAbiParameters([{ type: 'uint256' }], [10n ** 24n]);
    const [log] = decodeReceiptLogs([erc20], [{ address: token, topics, data }]);
    expect(log?.data).toEqual([{ name: 'value', value: 10n ** 24n }]);
  });

  it('tells ERC-721 Transfer from ERC-20 Transfer by the number of topics', () => {
    const topics = encodeEventTopics({
      abi: erc721,
      eventName: 'Transfer',
      args: { from, to, tokenId: 7n },
    }) as Hex[];
    const [log] = decodeReceiptLogs([erc20, erc721], [{ address: token, topics, data: '0x' }]);
    expect(log?.topics.map((topic) => topic.name)).toEqual(['signature', 'from', 'to', 'tokenId']);
    expect(log?.data).toEqual([]);
  });

  it('decodes static, dynamic, tuple and fixed-array params', () => {
    const topics = encodeEventTopics({ abi: misc, eventName: 'Note', args: { id: 3n } }) as Hex[];
    const data = encodeAbiParameters(
      [
        { type: 'string' },
        { type: 'tuple', components: [{ type: 'uint8' }, { type: 'uint8' }] },
        { type: 'uint256[2]' },
      ],
      ['hello', [1, 2], [3n, 4n]],
    );
    const [log] = decodeReceiptLogs([misc], [{ address: token, topics, data }]);
    expect(log?.name).toBe('Note');
    expect(log?.topics[1]).toEqual({ name: 'id', value: pad('0x03'), decoded: 3 });
    expect(log?.data).toEqual([
      { name: 'text', value: 'hello' },
      { name: 'pair', value: { a: 1, b: 2 } },
      { name: 'fixed', value: [3, 4] },
    ]);
  });

  it('names topics and data generically for an unknown event', () => {
    const topics = [pad('0x1234'), pad(from)] as Hex[];
    const [log] = decodeReceiptLogs([erc20], [{ address: token, topics, data: '0xabcd' }]);
    expect(log).toEqual({
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      name: '',
      topics: [
        { name: 'topic0', value: topics[0] },
        { name: 'topic1', value: topics[1] },
      ],
      data: [{ name: 'data', value: '0xabcd' }],
    });
  });

  it('treats a log without topics as unknown', () => {
    expect(decodeReceiptLogs([erc20], [{ address: token, topics: [], data: '0x' }])[0]?.name).toBe('');
  });

  it('still names an event whose data is short (non-strict), its missing value null', () => {
    const topics = encodeEventTopics({ abi: erc20, eventName: 'Transfer', args: { from, to } }) as Hex[];
    const [log] = decodeReceiptLogs([erc20], [{ address: token, topics, data: '0x' }]);
    expect(log?.name).toBe('Transfer');
    expect(log?.data).toEqual([{ name: 'value', value: null }]);
  });

  it('does not match anonymous events', () => {
    const anon = [
      {
        type: 'event',
        name: 'Anon',
        anonymous: true,
        inputs: [{ name: 'a', type: 'uint256', indexed: true }],
      },
    ] as const;
    const topics = encodeEventTopics({ abi: erc20, eventName: 'Transfer', args: { from, to } }) as Hex[];
    expect(
      decodeReceiptLogs([anon], [{ address: token, topics: topics.slice(0, 2), data: '0x' }])[0]?.name,
    ).toBe('');
  });

  it('decodes several logs in order and with no ABIs', () => {
    const topics = encodeEventTopics({ abi: erc20, eventName: 'Transfer', args: { from, to } }) as Hex[];
    const data = encodeAbiParameters([{ type: 'uint256' }], [1n]);
    const logs = [
      { address: token, topics, data },
      { address: token, topics: [pad('0x01')] as Hex[], data: '0x' as Hex },
    ];
    expect(decodeReceiptLogs([erc20], logs).map((log) => log.name)).toEqual(['Transfer', '']);
    expect(decodeReceiptLogs([], logs).map((log) => log.name)).toEqual(['', '']);
  });
});
