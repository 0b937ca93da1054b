import type { FastifyInstance } from 'fastify'
import type { Named } from './named.js'
import { Health, Readiness } from './health.js'

/** Every named response schema, added to a server before its routes (which refer to them). */
const ALL: Named[] = [Health, Readiness]

export function addNamedSchemas (app: FastifyInstance): void {
  for (const schema of ALL) app.addSchema(schema)
}
