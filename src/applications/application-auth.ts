import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ChaingateError } from '../platform/errors/chaingate-error.ts';
import type { Application } from './applications.service.ts';
import type { ApplicationAuthenticator } from './authentication.ts';

declare module 'fastify' {
  interface FastifyRequest {
    application: Application | null;
  }
  interface FastifyInstance {
    applicationAuthenticator: ApplicationAuthenticator;
  }
}

/**
 * Makes every route of `scope` (an encapsulated plugin context) require application credentials.
 * Call it at the top of a domain plugin.
 */
export function requireApplicationAuth(scope: FastifyInstance): void {
  // Declared on each route, so the OpenAPI document and Swagger UI's "Authorize" carry both headers.
  scope.addHook('onRoute', (route) => {
    route.schema = {
      ...route.schema,
      security: route.schema?.security ?? [{ apiKey: [], applicationId: [] }],
    };
  });
  // A callback hook: a known key is answered from the cache with no promise; anything else waits for
  // the full check (store lookup, hash comparison).
  scope.addHook('onRequest', (request, _reply, done) => {
    const authenticator = scope.applicationAuthenticator;
    const known = authenticator.cachedApplication(request.headers);
    if (known) {
      request.application = known;
      done();
      return;
    }
    authenticator.authenticate(request.headers).then((application) => {
      request.application = application;
      done();
    }, done);
  });
}

/** The authenticated application of a request inside a `requireApplicationAuth` scope. */
export function applicationOf(request: FastifyRequest): Application {
  if (!request.application) throw new ChaingateError('CG_ERR_UNAUTHORIZED', 'missing or invalid credentials');
  return request.application;
}
