import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import type { ObservedResponse } from '../../src/api/server.js'

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020
const DOCUMENT = 'openapi.json'
const pointer = (...tokens: string[]) => tokens.map(t => t.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')

interface Document {
  paths: Record<string, Record<string, { responses: Record<string, { $ref?: string, content?: Record<string, { schema?: unknown }> }> }>>
  components: { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }
}

/**
 * The contract harness: every JSON response a test app gives, as its route produced it (before serialization
 * drops what the schema does not declare), is checked against the OpenAPI document the app serves, for its
 * operation and status. A status the operation does not list, or a body its schema refuses (a field missing,
 * of another type, or not declared), is a violation; the test app's close() fails with every one of them
 * (test/support/app.ts). Routes the document hides (the operator API, dashboard sessions) are not checked.
 */
export class ContractHarness {
  readonly violations: string[] = []
  private ajv: Ajv2020 | undefined
  private readonly validators = new Map<string, ValidateFunction>()

  readonly observe = (r: ObservedResponse): void => {
    if (r.path === undefined || r.method === 'HEAD') return
    const doc = r.document() as Document
    const operation = doc.paths[r.path]?.[r.method.toLowerCase()]
    if (operation === undefined) return
    const where = `${r.method} ${r.path} ${r.status}`
    const status = [String(r.status), `${String(r.status)[0]}XX`, 'default'].find(s => operation.responses[s] !== undefined)
    if (status === undefined) {
      this.violations.push(`${where}: the document lists no such status (${Object.keys(operation.responses).join(', ')})`)
      return
    }
    const response = operation.responses[status]!
    const named = response.$ref?.startsWith('#/components/responses/') === true ? response.$ref.slice('#/components/responses/'.length) : undefined
    const content = named === undefined ? response.content : doc.components.responses[named]?.content
    if (content?.['application/json']?.schema === undefined) {
      if (r.body !== undefined && r.body !== null) this.violations.push(`${where}: a JSON body, where the document shows none`)
      return
    }
    const at = named === undefined
      ? `#/${pointer('paths', r.path, r.method.toLowerCase(), 'responses', status, 'content', 'application/json', 'schema')}`
      : `#/${pointer('components', 'responses', named, 'content', 'application/json', 'schema')}`
    const validate = this.validator(doc, at)
    // What the client receives: JSON, not the objects (a Buffer, undefined members) the route returned.
    const body = JSON.parse(JSON.stringify(r.body)) as unknown
    if (!validate(body)) this.violations.push(`${where}: ${validate.errors!.slice(0, 3).map(e => `${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`).join('; ')}`)
  }

  /** Violations of the schema at `at` (a pointer into the document, e.g. #/components/schemas/WebhookEvent) by `value`. */
  check (doc: object, at: string, value: unknown): string[] {
    const validate = this.validator(doc as Document, at)
    return validate(value) ? [] : validate.errors!.map(e => `${e.instancePath || '(value)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`)
  }

  private validator (doc: Document, at: string): ValidateFunction {
    if (this.ajv === undefined) {
      this.ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, validateFormats: true }))
      this.ajv.addSchema(doc as object, DOCUMENT)
    }
    let validate = this.validators.get(at)
    if (validate === undefined) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT}${at}` })
      this.validators.set(at, validate)
    }
    return validate
  }
}
