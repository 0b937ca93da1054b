import { gzipSync } from 'node:zlib'
import { create, toBinary } from '@bufbuild/protobuf'
import * as grpc from '@grpc/grpc-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { ScoreRequestSchema } from '../../src/gen/fraud/v1/score_pb.js'
import { scorerDefinition } from '../../src/grpc/scorer-server.js'
import { auth, eventually, startTestApp, TEST_KEY } from '../support/app.js'

/**
 * The smaller findings of the last attack, each tried as the attacker did: bodies that are not UTF-8 or are
 * compressed, gRPC messages REST would refuse, deny lists sidestepped by writing a value another way, and a
 * tenant's admin probing for another tenant's users. The API layer is the same on both transports: embedded only.
 */
let app: App
let client: grpc.Client & Record<string, Function>
const PASSWORD = 'correct horse battery staple'

beforeAll(async () => {
  app = await startTestApp({ GRPC_PORT: '0' })
  const Client = grpc.makeGenericClientConstructor(scorerDefinition as unknown as grpc.ServiceDefinition, 'Scorer')
  client = new Client(`127.0.0.1:${app.grpcPort}`, grpc.credentials.createInsecure()) as never
})
afterAll(async () => {
  client?.close()
  await app?.close()
})

const raw = (payload: Buffer | string, headers: Record<string, string> = {}) =>
  app.server.inject({ method: 'POST', url: '/v1/score', headers: { ...auth(), 'content-type': 'application/json', ...headers }, payload })
const score = async (body: object) => (await app.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload: body })).json()

function grpcScore (request: unknown, raw = false): Promise<grpc.ServiceError | null> {
  const metadata = new grpc.Metadata()
  metadata.set('authorization', `Bearer ${TEST_KEY}`)
  return new Promise(resolve => {
    if (!raw) {
      client.score!(request, metadata, (error: grpc.ServiceError | null) => resolve(error))
      return
    }
    // Bytes no ScoreRequest decodes to, sent as they are.
    client.makeUnaryRequest(scorerDefinition.score.path, (b: Buffer) => b, (b: Buffer) => b, request as Buffer, metadata, (error: grpc.ServiceError | null) => resolve(error))
  })
}

describe('bodies', () => {
  it('refuses invalid UTF-8 instead of rewriting it to U+FFFD (two byte strings would become one id)', async () => {
    const body = Buffer.concat([Buffer.from('{"event":"login","user_id":"u'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')])
    const res = await raw(body)
    expect(res.statusCode).toBe(400)
    expect(res.json().error).toMatchObject({ code: 'invalid_json', message: expect.stringContaining('UTF-8') })
  })

  it('refuses a compressed body with 415 instead of parsing it as text, whatever it holds', async () => {
    const gzipped = await raw(gzipSync('{"event":"login"}'), { 'content-encoding': 'gzip' })
    expect(gzipped.statusCode).toBe(415)
    expect(gzipped.json().error.code).toBe('unsupported_media_type')
    const mislabelled = await raw('{"event":"login"}', { 'content-encoding': 'gzip' })
    expect(mislabelled.statusCode).toBe(415)
    expect((await raw('{"event":"login"}', { 'content-encoding': 'identity' })).statusCode).toBe(200)
  })
})

describe('gRPC Score', () => {
  it('refuses the __proto__ and constructor.prototype custom keys that REST refuses', async () => {
    const rest = await raw('{"event":"payment","__proto__":{"admin":true}}')
    expect(rest.statusCode).toBe(400)
    for (const custom of [JSON.parse('{"__proto__":{"admin":true}}'), { constructor: { prototype: { x: 1 } } }, { nested: JSON.parse('{"a":{"__proto__":1}}') }]) {
      const error = await grpcScore(create(ScoreRequestSchema, { event: 'payment', custom }))
      expect(error?.code, JSON.stringify(Object.keys(custom))).toBe(grpc.status.INVALID_ARGUMENT)
      expect(error!.metadata.get('error-code')).toEqual(['parameter_invalid'])
    }
    expect(await grpcScore(create(ScoreRequestSchema, { event: 'payment', custom: { constructor: 'fine' } }))).toBeNull()
  })

  it('answers INVALID_ARGUMENT, not INTERNAL, to bytes that are not a ScoreRequest or hold invalid UTF-8', async () => {
    expect((await grpcScore(Buffer.from([0xff, 0xff, 0xff]), true))?.code).toBe(grpc.status.INVALID_ARGUMENT)
    const message = Buffer.from(toBinary(ScoreRequestSchema, create(ScoreRequestSchema, { event: 'abc' })))
    message[message.indexOf(0x61)] = 0xff
    const error = await grpcScore(message, true)
    expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT)
    expect(error!.metadata.get('error-code')).toEqual(['malformed_request'])
  })
})

describe('deny lists compare values in one canonical form', () => {
  it('rejects every other way of writing a deny-listed user, email and country', async () => {
    const add = async (alias: string, value: string) =>
      expect((await app.server.inject({ method: 'POST', url: `/v1/lists/${alias}/items`, headers: auth(), payload: { value } })).statusCode).toBe(200)
    await add('deny_users', 'baduser')
    await add('deny_emails', 'fraud@example.com')
    await add('deny_countries', 'KP')
    const ways: object[] = [
      { user_id: 'BADUSER' }, { user_id: 'baduser ' }, { user_id: 'bad\u200Buser' }, { user_id: 'ｂａｄｕｓｅｒ' },
      { user_id: '\uFEFFbaduser\u00AD' }, { email: 'fraud+1@example.com' }, { email: 'FRAUD@Example.com' },
      { geo: { country: ' KP' } }, { geo: { country: 'kp' } }, { geo: { ip_country: 'KP' } }, { geo: { billing_country: 'KP' } }
    ]
    await eventually(async () => (await score({ event: 'login', user_id: 'baduser' })).action === 'reject' || undefined, 10000, 'deny list applied')
    for (const way of ways) {
      const d = await score({ event: 'login', ...way })
      expect(d.action, JSON.stringify(way)).toBe('reject')
      expect(d.rules, JSON.stringify(way)).toContain('deny_list')
    }
    // An email with white space or full-width letters is no email: refused before any rule runs.
    for (const email of [' fraud@example.com', 'ｆｒａｕｄ@example.com']) expect((await score({ event: 'login', email })).error.code, email).toBe('parameter_invalid')
    // Values that merely resemble one are not denied: dots in an email, another user.
    expect((await score({ event: 'login', email: 'fr.aud@example.com' })).rules).not.toContain('deny_list')
    expect((await score({ event: 'login', user_id: 'baduser2' })).rules).not.toContain('deny_list')
  })
})

describe('dashboard users', () => {
  it("does not tell a tenant's admin that another tenant has a user with an email", async () => {
    await app.dashboard.createUser('ten_victim', { email: 'ceo@victim.example', name: 'Vic', role: 'admin', password: PASSWORD }, 'test', 'trc_test')
    const mine = await app.dashboard.createUser('ten_probe', { email: 'ceo@victim.example', name: 'Probe', role: 'admin', password: `${PASSWORD}!` }, 'test', 'trc_test')
    expect(mine.tenant_id).toBe('ten_probe')
    await expect(app.dashboard.createUser('ten_probe', { email: 'CEO@victim.example', name: 'Again', role: 'admin', password: PASSWORD }, 'test', 'trc_test'))
      .rejects.toMatchObject({ code: 'resource_exists', message: expect.not.stringContaining('victim') })
    // Each signs in with their own password to their own tenant.
    const victim = await app.dashboard.signIn('ceo@victim.example', PASSWORD, '10.9.0.1', 'trc_test')
    expect(victim.signedIn.user.tenant_id).toBe('ten_victim')
    const prober = await app.dashboard.signIn('ceo@victim.example', `${PASSWORD}!`, '10.9.0.2', 'trc_test')
    expect(prober.signedIn.user.tenant_id).toBe('ten_probe')
    await expect(app.dashboard.signIn('ceo@victim.example', 'wrong password!!', '10.9.0.3', 'trc_test')).rejects.toMatchObject({ code: 'invalid_credentials' })
  })
})
