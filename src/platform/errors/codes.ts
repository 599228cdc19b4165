/**
 * Every error code a client can see, with the HTTP status it answers and what it means. This table is
 * the only place that decides a status: domain errors carry a code, and the error handler looks it up
 * here (as Fastify's `lib/errors.js` does). The OpenAPI document lists each endpoint's codes from it.
 */
export const errorCodes = {
  // Requests the service refuses as they are.
  CG_ERR_VALIDATION: {
    status: 400,
    meaning: 'the request does not match the schema; the message names the field',
  },
  CG_ERR_INVALID_JSON: { status: 400, meaning: 'the body is not valid JSON' },
  CG_ERR_BAD_REQUEST: {
    status: 400,
    meaning: 'the request is wrong in format or content; the message says why',
  },
  CG_ERR_INVALID_PARAM: {
    status: 400,
    meaning: 'a function or constructor parameter does not fit its ABI type',
  },
  CG_ERR_PARAM_COUNT: { status: 400, meaning: '`params` has a different length than the function takes' },
  CG_ERR_UNKNOWN_METHOD: { status: 400, meaning: 'the ABI has no function of that name' },
  CG_ERR_AMBIGUOUS_METHOD: {
    status: 400,
    meaning: 'the name is overloaded: give the full signature as `method`',
  },
  CG_ERR_INVALID_ABI: {
    status: 400,
    meaning: 'an uploaded ABI is not a valid JSON ABI; the message names the item',
  },
  CG_ERR_UNKNOWN_NETWORK: { status: 400, meaning: 'the service has no network with that chain id' },
  CG_ERR_NETWORK_UNSUPPORTED: {
    status: 400,
    meaning:
      'the service cannot send on that network: it has no EIP-1559 base fee (a chain before London); reads work',
  },
  CG_ERR_UNKNOWN_SPEC: {
    status: 400,
    meaning: 'no contract spec with that id is visible to the application',
  },
  CG_ERR_UNKNOWN_CONTRACT: {
    status: 400,
    meaning: 'the ABI of the address is unknown: pass the `contractSpecsId` of a spec you can use',
  },
  CG_ERR_NOT_A_CONTRACT: { status: 400, meaning: 'the address holds no contract code on that network' },
  CG_ERR_NO_BYTECODE: { status: 400, meaning: 'the spec has no creation bytecode, so it cannot be deployed' },
  CG_ERR_UNDECODABLE_RESULT: {
    status: 400,
    meaning: 'the contract answered data that does not decode as the function outputs (wrong ABI?)',
  },
  CG_ERR_BAD_NONCE: {
    status: 400,
    meaning: 'an explicit `nonce` is neither a pending transaction of the sender nor its next nonce',
  },
  ERROR_EXECUTION_REVERTED: {
    status: 400,
    meaning: 'the call reverts on chain; the message carries the decoded reason',
  },
  ERROR_GAS_LIMIT_TOO_LOW: { status: 400, meaning: 'the given `gasLimit` is below the chain estimate' },
  ERROR_INSUFICIENT_FUNDS: {
    status: 400,
    meaning:
      'the sender cannot pay gas × price + value; nothing was sent (spelling as the documented service)',
  },
  ERROR_FEE_ABOVE_CEILING: {
    status: 400,
    meaning: "`gasPrice` is above the network's configured fee ceiling",
  },
  ERROR_REPLACEMENT_UNDERPRICED: {
    status: 400,
    meaning:
      'a replacement (same nonce) must pay more than the pending transaction: raise gasPrice/priorityFee',
  },
  ERROR_NONCE_CONFLICT: { status: 400, meaning: 'the explicit nonce is already used on chain' },
  ERROR_REJECTED_BY_NODE: {
    status: 400,
    meaning: 'the node refused the signed transaction; the message says why',
  },
  // Wallets.
  CG_ERR_UNKNOWN_WALLET: {
    status: 404,
    meaning: 'the calling application has no custodied wallet for that user or address',
  },
  CG_ERR_WRONG_STRATEGY: {
    status: 400,
    meaning: "`strategy` is not the wallet's strategy, or the wallet's strategy does not use that endpoint",
  },
  CG_ERR_STRATEGY_NOT_ALLOWED: { status: 400, meaning: 'the wallet hash does not allow that strategy' },
  CG_ERR_SETUP_NOT_STARTED: {
    status: 400,
    meaning: 'confirm needs the setup of the same strategy first (POST /wallet/api/setup)',
  },
  CG_ERR_INVALID_PIN: {
    status: 401,
    meaning: 'the PIN or one-time code is wrong, expired or already used; wrong ones are counted per wallet',
  },
  CG_ERR_UNKNOWN_HASH: { status: 404, meaning: 'no wallet hash with that value (for that username)' },
  CG_ERR_WALLET_EXISTS: {
    status: 409,
    meaning: 'the user already has a custodied wallet in this application',
  },
  CG_ERR_HASH_EXPIRED: { status: 410, meaning: 'the wallet hash has expired: request a new one' },
  CG_ERR_HASH_USED: { status: 410, meaning: 'the wallet hash was already used to create a wallet' },
  CG_ERR_WALLET_LOCKED: {
    status: 429,
    meaning: '5 wrong PINs or codes in a row: locked for 15 minutes; `Retry-After` gives the seconds left',
  },
  CG_ERR_CODE_RECENTLY_SENT: {
    status: 429,
    meaning: 'a code was e-mailed moments ago; `Retry-After` gives the seconds until another can be sent',
  },
  CG_ERR_MAIL_FAILED: { status: 503, meaning: 'the mail server did not accept the message; retry shortly' },
  // IPFS.
  CG_ERR_RANGE_NOT_SATISFIABLE: {
    status: 416,
    meaning: 'the `Range` starts past the end of the file (`Content-Range` gives its size)',
  },
  // Tokens.
  CG_ERR_WRONG_TOKEN_STANDARD: {
    status: 400,
    meaning: 'the contract is not of the token standard the endpoint serves; the message says what it is',
  },
  CG_ERR_CONTRACT_PENDING: {
    status: 400,
    meaning: 'the contract is still being deployed; reads answer once its deploy transaction is mined',
  },
  CG_ERR_INSUFFICIENT_ALLOWANCE: {
    status: 400,
    meaning: "the signer's allowance over the owner's tokens is below the amount; nothing was signed",
  },
  CG_ERR_INSUFFICIENT_TOKEN_BALANCE: {
    status: 400,
    meaning: 'the owner holds fewer tokens than the amount; nothing was signed',
  },
  CG_ERR_NOT_TOKEN_OWNER: {
    status: 400,
    meaning:
      '`from` does not own the token, or the signer is neither its owner nor approved; nothing was signed',
  },
  CG_ERR_NOT_MINTER: {
    status: 400,
    meaning: 'the signer lacks the POAP minter role, which every POAP move needs; nothing was signed',
  },
  CG_ERR_DUPLICATE_IPFS_HASH: {
    status: 400,
    meaning: 'the ipfsHash is already minted (or being minted) on that ERC-721 contract; nothing was signed',
  },
  CG_ERR_TOKEN_EXISTS: { status: 400, meaning: 'a token with that id is already minted on the contract' },
  CG_ERR_NONEXISTENT_TOKEN: { status: 400, meaning: 'no token with that id exists on the contract' },
  // Stellar.
  CG_ERR_STELLAR_NO_FRIENDBOT: {
    status: 400,
    meaning: 'the network has no friendbot (pubnet): fund the account with a payment of lumens',
  },
  CG_ERR_STELLAR_ALREADY_FUNDED: {
    status: 400,
    meaning: 'the account already exists (is funded) on that network',
  },
  CG_ERR_STELLAR_UNKNOWN_ACCOUNT: { status: 400, meaning: 'the account does not exist on that network' },
  CG_ERR_STELLAR_INVALID_WASM: {
    status: 400,
    meaning:
      'the file is not a Soroban contract: wasm magic, sections or the contractspecv0 section are wrong',
  },
  CG_ERR_STELLAR_UNKNOWN_CONTRACT: {
    status: 400,
    meaning: 'no contract instance (or wasm code) at that address or for that spec on that network',
  },
  CG_ERR_STELLAR_CONTRACT_ERROR: {
    status: 400,
    meaning: 'the contract returned one of its errors; the message carries its number and name from the spec',
  },
  CG_ERR_STELLAR_SIMULATION_FAILED: {
    status: 400,
    meaning:
      'the simulation of the transaction failed (a trap, a budget, a missing entry); the message says why',
  },
  CG_ERR_STELLAR_AUTH_REQUIRED: {
    status: 400,
    meaning:
      'the invocation needs the signature of an address whose key the service does not hold; nothing was sent',
  },
  CG_ERR_STELLAR_ARCHIVED: {
    status: 400,
    meaning: 'entries the transaction needs are archived: send it again with `restore: true`',
  },
  CG_ERR_STELLAR_INSUFFICIENT_BALANCE: {
    status: 400,
    meaning: "the application's account cannot pay the fee; fund it (the message names it)",
  },
  CG_ERR_STELLAR_REJECTED: {
    status: 400,
    meaning: 'the network refused the signed transaction; the message carries its result code',
  },
  CG_ERR_STELLAR_UNKNOWN_TRANSACTION: {
    status: 400,
    meaning: 'no transaction with that hash on that network',
  },
  CG_ERR_STELLAR_UNREACHABLE: {
    status: 503,
    meaning:
      "the network's Soroban RPC or friendbot did not answer (in time); the message says why. A submission answered so did not reach the network, and sending it again is safe (one that went out unanswered is kept and submitted again)",
  },
  // Soroban builds.
  CG_ERR_STELLAR_NOT_A_CARGO_PROJECT: {
    status: 400,
    meaning:
      'the zip is not the contents of a Cargo project with a contract (a zip of the folder, no Cargo.toml at its root, a manifest that does not parse, no cdylib package)',
  },
  CG_ERR_STELLAR_BUILD_UNAVAILABLE: {
    status: 503,
    meaning:
      'projects cannot be compiled here: the toolchain or bubblewrap is missing; the message says which',
  },
  // Credentials and access.
  CG_ERR_UNAUTHORIZED: { status: 401, meaning: 'missing or invalid credentials' },
  CG_ERR_PLAN_FORBIDS: {
    status: 403,
    meaning: "the application's plan does not allow it (main networks and own specs need premium)",
  },
  CG_ERR_UNKNOWN_SENDER: {
    status: 403,
    meaning: 'the sender is not an account of the calling application; nothing was signed',
  },
  CG_ERR_NOT_FOUND: { status: 404, meaning: 'no such resource for this application' },
  CG_ERR_ROUTE_NOT_FOUND: { status: 404, meaning: 'no endpoint at that method and path' },
  CG_ERR_UNKNOWN_APPLICATION: { status: 404, meaning: 'no application with that id' },
  CG_ERR_UNKNOWN_TRANSACTION: {
    status: 404,
    meaning: 'no such transaction on that network (for this application)',
  },
  CG_ERR_CONFLICT: { status: 409, meaning: 'the record already exists' },
  CG_ERR_IDEMPOTENCY_KEY_REUSED: {
    status: 409,
    meaning:
      'the Idempotency-Key was used before by this application for a different request; nothing was sent',
  },
  CG_ERR_IDEMPOTENCY_KEY_IN_USE: {
    status: 409,
    meaning:
      'a request with this Idempotency-Key was still being submitted; nothing was sent by this one: ask again, and the repetition answers that request’s transaction',
  },
  CG_ERR_BODY_TOO_LARGE: {
    status: 413,
    meaning: 'the request body is over the limit; the connection is closed',
  },
  CG_ERR_URL_TOO_LONG: { status: 414, meaning: 'a path parameter or the URL is too long' },
  CG_ERR_UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    meaning: 'the body is neither JSON nor the form this endpoint takes',
  },
  CG_ERR_HEADERS_TOO_LARGE: { status: 431, meaning: 'the request headers are too large' },
  // Dependencies.
  CG_ERR_INTERNAL: { status: 500, meaning: 'a bug: the service failed in a way it did not foresee' },
  CG_ERR_STARTING: { status: 503, meaning: 'the service is starting or a component is down; retry shortly' },
  CG_ERR_DEPENDENCY: { status: 503, meaning: 'a dependency (database, node) failed; the message says which' },
  ERROR_NODE_UNREACHABLE: {
    status: 503,
    meaning:
      'the network node could not be reached, did not answer in time, or answered HTTP that is not JSON-RPC (the message says which: a wrong RPC URL or key shows here); a send answered so reached no node and is never broadcast later (one whose broadcast went out unanswered is kept and answered 201)',
  },
  ERROR_NONCE_TOO_HIGH: {
    status: 503,
    meaning: 'the node kept refusing the nonce as too high (it lacks an earlier transaction); retry shortly',
  },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof errorCodes;

/** Codes stored on transaction records (`errorInfo.code`) that no request answers directly. */
export const recordErrorCodes = {
  ERROR_EVM_REVERTED: 'reverted on chain; the message carries the decoded reason',
  ERROR_REPLACED: 'replaced by another transaction with the same nonce',
  ERROR_CHAIN_LOST:
    'the chain lost the transaction (a reorg or a node restored from a snapshot) and the node kept refusing it again for CHAINGATE_REFUSED_FAIL_AFTER_SECONDS (default 3 min); its nonce was filled. A full pool, a rate limit, an unreachable node and a max fee below the base fee (re-priced) never cause this',
} as const;
