import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const description = `chaingate: smart contracts, tokens, custodied wallets, IPFS and Soroban over REST.

Every call of the customer API sends \`Authorization: Bearer <apiKey>\` and \`x-application-svc: <applicationId>\`
(\`x-application-vkn\` is accepted as a synonym). Errors answer \`{statusCode, code, error, message}\`; a 400
names the offending field. Integers that can exceed 2^53 are accepted as JSON numbers or decimal strings and
returned as decimal strings when they exceed 2^53 - 1. Reads documented as GET also accept POST with the same
JSON body, or GET with a query string. A doubled slash in a path is treated as one.`;

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
        security: [{ apiKey: [], applicationId: [] }],
      },
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
    app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'chaingate-openapi', fastify: '5.x' },
);
