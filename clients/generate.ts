/**
 * Writes the service's OpenAPI document to clients/openapi.json and the TypeScript client's types generated from
 * it (clients/typescript/src/schema.d.ts, openapi-typescript). Run after changing the API: `npm run clients:generate`.
 * The tests fail while either file differs from what this would write (clients/typescript/test/generated.test.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pino from 'pino'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { startApp } from '../src/app/app.js'
import { loadConfig } from '../src/app/config.js'

const here = path.dirname(fileURLToPath(import.meta.url))
export const DOCUMENT_FILE = path.join(here, 'openapi.json')
export const TYPES_FILE = path.join(here, 'typescript', 'src', 'schema.d.ts')

/** The document as the service serves it, formatted as it is committed. */
export async function servedDocument (): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'fds-openapi-'))
  const app = await startApp(loadConfig({ DATA_DIR: dir, PORT: '0', GRPC_PORT: '', METRICS_PORT: '', STORAGE_RESERVE_MB: '0', TOPOLOGY_THREAD: 'main' }), pino({ level: 'silent' }), { listen: false, topologies: false })
  try {
    return `${JSON.stringify((await app.server.inject({ method: 'GET', url: '/v1/openapi.json' })).json(), null, 2)}\n`
  } finally {
    await app.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The free-form JSON values (a score request's own keys, geo, metadata), recursive schemas in the document, are
 * `unknown` in TypeScript: a recursive type beside declared properties makes openapi-fetch's request body type
 * refuse every body (its Writable<> reads the index signature as any).
 */
const FREE_FORM = new Set(['#/components/schemas/FreeForm', '#/components/schemas/PlainJson'])

/** The client's types for a document. */
export async function typesOf (document: string): Promise<string> {
  const banner = '// Generated from clients/openapi.json by clients/generate.ts (openapi-typescript). Do not edit.\n\n'
  const types = await openapiTS(JSON.parse(document) as never, {
    alphabetize: false,
    transform: (_schema, { path }) => path !== undefined && FREE_FORM.has(path) ? ts.factory.createKeywordTypeNode(ts.SyntaxKind.UnknownKeyword) : undefined
  })
  return banner + astToString(types)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const document = await servedDocument()
  writeFileSync(DOCUMENT_FILE, document)
  writeFileSync(TYPES_FILE, await typesOf(document))
  console.log(`wrote ${path.relative(process.cwd(), DOCUMENT_FILE)} and ${path.relative(process.cwd(), TYPES_FILE)}`)
}
