import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signatureHeader, verifyWebhookSignature } from '../src/domain/webhooks/signature.js'

/**
 * The receiver-side verification code shown in docs/webhooks.md (between the verify-snippet markers) is taken
 * out of the page, compiled and run against signatures made by the service's own signing function, so the
 * documented code is the code that works.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const page = readFileSync(path.join(root, 'docs/webhooks.md'), 'utf8')

function snippet (): string {
  const marked = /<!-- verify-snippet:start -->\s*```ts\n([\s\S]*?)```\s*<!-- verify-snippet:end -->/.exec(page)
  if (marked === null) throw new Error('docs/webhooks.md: no ```ts block between <!-- verify-snippet:start --> and <!-- verify-snippet:end -->')
  return marked[1]!
}

type Verify = (rawBody: string | Buffer, header: string, secret: string, toleranceSeconds?: number, nowSeconds?: number) => boolean

let dir: string
let verify: Verify

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'docs-snippet-'))
  const out = ts.transpileModule(snippet(), {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    reportDiagnostics: true
  })
  expect(out.diagnostics ?? []).toEqual([])
  const file = path.join(dir, 'verify.mjs')
  writeFileSync(file, out.outputText)
  const mod = await import(pathToFileURL(file).href) as { verify?: Verify }
  if (typeof mod.verify !== 'function') throw new Error('the documented snippet must export a function named verify')
  verify = mod.verify
})

afterAll(() => { rmSync(dir, { recursive: true, force: true }) })

describe('docs/webhooks.md verification snippet', () => {
  const body = '{"id":"evt_01","type":"case.created","created":1800000000,"livemode":false,"data":{"case_id":"case_1"}}'
  const secret = 'whsec_current'
  const t = 1_800_000_000

  it('type-checks as strict TypeScript on its own', () => {
    const file = path.join(dir, 'verify.ts')
    writeFileSync(file, snippet())
    const program = ts.createProgram([file], {
      strict: true,
      noUncheckedIndexedAccess: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      types: ['node'],
      typeRoots: [path.join(root, 'node_modules/@types')],
      skipLibCheck: true
    })
    const errors = ts.getPreEmitDiagnostics(program).map(d => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    expect(errors).toEqual([])
  }, 30_000)

  it('accepts a header made by the service for the raw body and secret, with the current clock too', () => {
    expect(verify(body, signatureHeader(body, [secret], t), secret, 300, t)).toBe(true)
    expect(verify(Buffer.from(body), signatureHeader(body, [secret], t), secret, 300, t)).toBe(true)
    const now = Math.floor(Date.now() / 1000)
    expect(verify(body, signatureHeader(body, [secret], now), secret)).toBe(true)
  })

  it('hashes the raw bytes: a non-ASCII body verifies as a string and as a Buffer', () => {
    const utf8 = '{"data":{"name":"Zoë 🚀"}}'
    const header = signatureHeader(Buffer.from(utf8), [secret], t)
    expect(verify(utf8, header, secret, 300, t)).toBe(true)
    expect(verify(Buffer.from(utf8), header, secret, 300, t)).toBe(true)
  })

  it('refuses a tampered body, a wrong secret and a tampered signature', () => {
    const header = signatureHeader(body, [secret], t)
    expect(verify(body.replace('case_1', 'case_2'), header, secret, 300, t)).toBe(false)
    expect(verify(body + ' ', header, secret, 300, t)).toBe(false)
    expect(verify(body, header, 'whsec_other', 300, t)).toBe(false)
    const flipped = header.slice(0, -1) + (header.endsWith('0') ? '1' : '0')
    expect(verify(body, flipped, secret, 300, t)).toBe(false)
    // the signature is bound to its timestamp: moving t invalidates it
    expect(verify(body, header.replace(`t=${t}`, `t=${t + 1}`), secret, 300, t)).toBe(false)
  })

  it('during a rotation (two v1, old and new secret) accepts either secret and nothing else', () => {
    const header = signatureHeader(body, ['whsec_old', 'whsec_new'], t)
    expect(header.match(/v1=/g)).toHaveLength(2)
    expect(verify(body, header, 'whsec_old', 300, t)).toBe(true)
    expect(verify(body, header, 'whsec_new', 300, t)).toBe(true)
    expect(verify(body, header, 'whsec_neither', 300, t)).toBe(false)
    expect(verify(body.toUpperCase(), header, 'whsec_new', 300, t)).toBe(false)
  })

  it('refuses timestamps more than 5 minutes away (the default tolerance), either way', () => {
    const header = signatureHeader(body, [secret], t)
    expect(verify(body, header, secret, undefined, t + 300)).toBe(true)
    expect(verify(body, header, secret, undefined, t + 301)).toBe(false)
    expect(verify(body, header, secret, undefined, t - 301)).toBe(false)
    expect(verify(body, signatureHeader(body, [secret], Math.floor(Date.now() / 1000) - 301), secret)).toBe(false)
  })

  it('refuses malformed headers', () => {
    const v1 = signatureHeader(body, [secret], t).split(',')[1]!
    for (const header of ['', v1, `t=,${v1}`, `t=abc,${v1}`, `t=${t}`, `t=${t},v1=`, `t=${t},v1=zz`, `t=${t},v2=${v1.slice(3)}`]) {
      expect(verify(body, header, secret, 300, t), header).toBe(false)
    }
  })

  it('agrees with the service helper verifyWebhookSignature on every case above', () => {
    const headers = [
      signatureHeader(body, [secret], t),
      signatureHeader(body, ['whsec_old', secret], t),
      signatureHeader(body, [secret], t - 301),
      signatureHeader(body + 'x', [secret], t),
      `t=${t}`,
      'v1=abc',
      ''
    ]
    for (const header of headers) {
      for (const s of [secret, 'whsec_old', 'whsec_other']) {
        for (const raw of [body, Buffer.from(body), body + 'x']) {
          expect(verify(raw, header, s, 300, t), `${header} / ${s}`).toBe(verifyWebhookSignature(raw, header, s, 300, t))
        }
      }
    }
  })
})
