import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'

/**
 * OpenAPI 3.1, generated from the route schemas by @fastify/swagger: GET /v1/openapi.json, and a docs page
 * (Swagger UI, served from the package, no network) at /v1/docs.
 */
export async function registerOpenApi (app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Fraud decision service', version: '1.0.0', description: 'Inline fraud decisions, rules, cases, webhooks. Errors use {"error": {type, code, message, param?, trace_id}}.' },
      components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'sk_live_... or sk_test_...' } } },
      security: [{ apiKey: [] }]
    }
  })
  await app.register(swaggerUi, { routePrefix: '/v1/docs' })
  app.get('/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger())
}
