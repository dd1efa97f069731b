import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { JSON_TYPE } from '../http/send-json.ts';

/*
 * Why a plugin: the API reference is one concern, the OpenAPI document built from the zod schemas of
 * every route and the two ways it is served (/spec.json, and the /docs page rendering it). It is
 * registered on the root before any route, so the document sees every route of every scope, and its own
 * routes sit outside the API scope: public without exceptions made for them.
 */

/** Where the interactive API reference is served (Swagger UI, rendering the same document as /spec.json). */
export const DOCS_PATH = '/docs';

const API_DESCRIPTION = `Electrification incentives, savings and health-impact API, answered from a published snapshot.

**Authentication.** Every route except \`/healthz\`, \`/spec.json\`, the county map (\`/explore\`) and this page (\`${DOCS_PATH}\`) needs an API key
in the header \`Authorization: Bearer <key>\`. \`npm start\` creates a key named \`local\` on first start and prints it
once; \`npm run keys -- create --name <name>\` makes more. Press **Authorize** to try requests from this page.
Each key has its own rate limit, reported in the \`X-RateLimit-*\` headers.

**Errors** all have one body, the \`Error\` schema: \`statusCode\`, \`error\` (the HTTP reason phrase), \`message\`
and, when one parameter is at fault, \`field\`.`;

export const docsPlugin = fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: { title: 'electrify-service', version: '0.1.0', description: API_DESCRIPTION },
        components: {
          securitySchemes: {
            bearerAuth: {
              type: 'http',
              scheme: 'bearer',
              description: 'An API key made by `npm start` (first start) or `npm run keys -- create`',
            },
          },
        },
        security: [{ bearerAuth: [] }],
      },
      transform: jsonSchemaTransform,
      transformObject: jsonSchemaTransformObject,
    });

    // The page's files come from node_modules: nothing from the network.
    await app.register(swaggerUi, {
      routePrefix: DOCS_PATH,
      theme: { title: 'electrify-service API reference' },
      uiConfig: {
        layout: 'BaseLayout',
        docExpansion: 'list',
        defaultModelsExpandDepth: 0,
        displayRequestDuration: true,
      },
    });

    // Built on the first request, once every route is registered, and then sent as the same bytes.
    let spec: string | undefined;
    app.get('/spec.json', { schema: { hide: true } }, async (_request, reply) => {
      spec ??= JSON.stringify(app.swagger());
      return reply.type(JSON_TYPE).send(spec);
    });
  },
  { name: 'electrify-docs', fastify: '5.x' },
);
