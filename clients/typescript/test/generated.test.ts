import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { DOCUMENT_FILE, servedDocument, TYPES_FILE, typesOf } from '../../generate.js'

/** The committed document and types are what the service and the generator make today (`npm run clients:generate`). */
describe('the generated files', () => {
  it('clients/openapi.json is the document the service serves', async () => {
    expect(await servedDocument() === readFileSync(DOCUMENT_FILE, 'utf8'), 'the API changed: run npm run clients:generate').toBe(true)
  })

  it('the TypeScript client\u2019s types are generated from that document', async () => {
    expect(await typesOf(readFileSync(DOCUMENT_FILE, 'utf8')) === readFileSync(TYPES_FILE, 'utf8'), 'run npm run clients:generate').toBe(true)
  })
})
