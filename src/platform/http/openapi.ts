import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const description = `chaingate: smart contracts, tokens, custodied wallets, IPFS and Soroban over REST.

Every call of the customer API sends \`Authorization: Bearer <apiKey>\` and \`x-application-svc: <applicationId>\`
(\`x-application-vkn\` is accepted as a synonym). Errors answer \`{statusCode, code, error, message}\`; a 400
names the offending field, and each endpoint lists the codes it can answer, with their meanings.

Numbers: an integer that can exceed 2^53 (wei, token amounts, uint256 params) is accepted as a JSON number,
every digit kept, or as a decimal string; a fraction or an exponent for an integer field is a 400, never
rounded. Responses write every integer as a JSON number with all its digits; where JavaScript clients need
exactness a decimal-string twin stands beside it (\`balanceWei\`, \`valueWei\`, …).

Drop-in rules for existing clients: a body that parses as JSON is JSON whatever its Content-Type, and an empty
body is \`{}\`; an optional field that is \`null\` is absent; \`gasLimit\`, \`gas\`, \`gasPrice\` and
\`priorityFee\` of 0 are absent (\`nonce: 0\` is a nonce); \`params\` null or missing is \`[]\`. Reads documented
as GET also accept POST with the same JSON body, or GET with a query string (arrays as JSON text). Static path
segments match in any case (\`/isContract\`), and a doubled slash is one. Text with a NUL character or a lone
UTF-16 surrogate is refused (NUL is allowed inside \`params\`).

Sends (EVM): a transaction is signed and stored with its nonce and hash before it goes to the node, and 201
means the service holds it and will get it on chain. Usually the node has accepted it by then. When the
request reached the node but its answer did not come back (no answer in time, a dropped connection, a
gateway's 5xx), the node may hold the transaction: the answer is still 201 with its \`txHash\`, the record
shows \`inserted\`, and the engine gives the node the same signed bytes again until the chain has them. It
is never signed again under another nonce, so a client that follows the hash pays once. A 503
\`ERROR_NODE_UNREACHABLE\` on a send means nothing reached a node (a refused connection, an HTTP refusal
such as 401, 404 or 429): the record is \`error\`, its nonce is reused, and sending again is safe.

Submissions (Stellar) follow the same rule. A submission that reached the network's RPC without an answer
is kept: the request answers with its \`txHash\`, the record stays PENDING, and the service submits the same
envelope until the network has it; one that never gets there before its envelope expires (10 minutes) ends
FAILED \`txTooLate\` and can no longer land. A 503 \`CG_ERR_STELLAR_UNREACHABLE\` on a submission means it
did not reach the network, and sending again is safe.

Every wait on a dependency has a deadline, and past it the request answers 503 with the reason instead of
hanging: a node or a Soroban RPC call, an SMTP server, and the database (connecting, a free connection, and
each statement: \`CHAINGATE_DATABASE_TIMEOUT_SECONDS\`, 10 s by default; the message says "the database did
not answer within 10 s"). A statement past its deadline closes its connection, so the database rolls its
transaction back and a send answered so took no nonce and was not stored. A send whose transaction was
stored and then given to the node answers 201 with its hash even when the database fails after that: the
engine finishes it, and its record says how it ends. The one unsure case is a database
that stalls after it has committed but before it answers. The service then asks it whether the send was
saved: if it was, the send goes on and answers 201. If the database still does not answer, the send answers
503 with "…when asked to commit, so the request may have been saved", and names the \`Idempotency-Key\` header
as the way to retry it safely (below); a send saved so goes out all the same.
A send made with a \`myReference\` can be looked up under \`/info/transaction/reference/{reference}\` before
it is sent again.

Retrying a send safely (beyond the spec): every EVM sending endpoint (\`transact/mutable\`,
\`contract/deploy\`, \`chain/transfer\`, the token facades, the custodied wallets' sends) takes an
\`Idempotency-Key\` header (or thirdweb Engine's \`X-Idempotency-Key\`). A request that repeats a key the
application used before runs nothing and answers the first transaction: 201 with the same \`txHash\` and
\`nonce\` and the header \`Idempotent-Replayed: true\`, whether the first answer was lost, was a 503 that
said the send may have been saved, or is still on its way. The store holds each application's keys unique,
so requests with one key sent at once store one transaction. The same key with a different request (another
endpoint, query or body; a wallet's PIN or code does not count) answers 409
\`CG_ERR_IDEMPOTENCY_KEY_REUSED\`. A send that ended with nothing sent (an error that says retrying is
safe, such as \`ERROR_NODE_UNREACHABLE\` or \`ERROR_INSUFICIENT_FUNDS\` from the node) releases its key, and
its retry runs again. Keys do not expire. One exception to "still on its way": an ERC-721 mint claims its
\`ipfsHash\` before its transaction is stored, and a repetition that arrives in between answers 409
\`CG_ERR_IDEMPOTENCY_KEY_IN_USE\` (ask again: it then answers the mint), not \`CG_ERR_DUPLICATE_IPFS_HASH\`.

Stellar submissions (\`contract/deployment\`, \`contract/invoke\`, \`contract/invoke/extendttl\`) take the
same header, with the same rules, on the record of the request's own transaction (not on a wasm upload or a
restore submitted before it). One difference: a request whose key another request of the application is
still submitting answers 409 \`CG_ERR_IDEMPOTENCY_KEY_IN_USE\` with nothing sent; asked again, it answers
that request's transaction. The same holds when the other request was made to another service process on
the same store, and the requests signed beside this one go out all the same. A submission refused by the network, or expired before any ledger, releases its
key.`;

/** OpenAPI 3 generated from the route schemas, at `/openapi.json`, with Swagger UI at `/docs`. */
export const openApiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: { title: 'chaingate', version: '1.0.0', description },
        components: {
          securitySchemes: {
            apiKey: { type: 'http', scheme: 'bearer', description: 'API key of the application' },
            applicationId: { type: 'apiKey', in: 'header', name: 'x-application-svc' },
            adminToken: { type: 'http', scheme: 'bearer', description: 'admin token (credentials.json)' },
          },
        },
      },
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'chaingate-openapi', fastify: '5.x' },
);
