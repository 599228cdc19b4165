import { afterEach, describe, expect, it } from 'vitest';
import { databaseFactories } from '../../../test/support/databases.ts';
import { stringifyLosslessJson } from '../json/lossless-json.ts';
import type { Database } from './database.ts';

// A stored response part (a Stellar receipt's return value) is answered from its json column later:
// an integer beyond 2^53 must come back with every digit, not rounded by JSON.parse.
describe.each(databaseFactories)('json columns on $kind', (factory) => {
  let db: Database;
  afterEach(async () => db?.close());

  it('reads back integers beyond 2^53 as bigints with every digit, and the rest as JSON.parse does', async () => {
    db = await factory.open();
    await db.exec('CREATE TEMP TABLE documents (id int PRIMARY KEY, body jsonb, plain json)');
    const document = {
      big: 340282366920938463463374607431768211455n,
      negative: -(2n ** 64n),
      edge: 2n ** 53n,
      safe: 2 ** 53 - 1,
      fraction: 2.5,
      text: '12345678901234567890',
      list: [1, 18446744073709551615n, { deep: -170141183460469231731687303715884105728n }],
      none: null,
    };
    const text = stringifyLosslessJson(document);
    expect(text).toContain('"big":340282366920938463463374607431768211455');
    await db.query('INSERT INTO documents (id, body, plain) VALUES (1, $1, $2)', [text, text]);
    const [row] = await db.query<{ body: typeof document; plain: typeof document }>(
      'SELECT body, plain FROM documents',
    );
    expect(row?.body).toEqual(document);
    expect(row?.plain).toEqual(document);
    expect(typeof row?.body.safe).toBe('number');
    expect(typeof row?.body.text).toBe('string');
  });

  it('reads ordinary documents exactly as before', async () => {
    db = await factory.open();
    await db.exec('CREATE TEMP TABLE documents (id int PRIMARY KEY, body jsonb)');
    const abi = [
      { type: 'function', name: 'f', inputs: [{ type: 'uint256' }], outputs: [], stateMutability: 'view' },
    ];
    await db.query('INSERT INTO documents (id, body) VALUES (1, $1)', [JSON.stringify(abi)]);
    const [row] = await db.query<{ body: unknown }>('SELECT body FROM documents');
    expect(row?.body).toEqual(abi);
  });
});
