import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auth, startTestApp } from '../support/app.js'
import { TAG } from '../../src/stores/keys.js'

let app: App
let now = Date.parse('2026-11-22T12:00:00Z')
const post = (url: string, payload: object, key: string) => app.server.inject({ method: 'POST', url, headers: { ...auth(), 'idempotency-key': key }, payload })

beforeAll(async () => { app = await startTestApp({}, { clock: () => now }) })
afterAll(async () => { await app.close() })

describe('Idempotency-Key', () => {
  it('replays the first answer for the same parameters, without deciding twice', async () => {
    const first = await post('/v1/score', { event: 'payment', amount: 12, user_id: 'u-idem' }, 'order-1')
    const again = await post('/v1/score', { event: 'payment', amount: 12, user_id: 'u-idem' }, 'order-1')
    expect(again.statusCode).toBe(200)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(first.headers['idempotent-replayed']).toBeUndefined()
    expect(again.json()).toEqual(first.json())
    expect(again.headers['x-trace-id']).toBe(first.json().trace_id)
    const other = await post('/v1/score', { event: 'payment', amount: 12, user_id: 'u-idem' }, 'order-2')
    expect(other.json().trace_id).not.toBe(first.json().trace_id)
  })

  it('refuses the same key with other parameters (422), replays 4xx answers, forgets after 24 h', async () => {
    await post('/v1/score', { event: 'payment', amount: 1 }, 'order-3')
    const mismatch = await post('/v1/score', { event: 'payment', amount: 2 }, 'order-3')
    expect(mismatch.statusCode).toBe(422)
    expect(mismatch.json().error).toMatchObject({ code: 'idempotency_key_mismatch' })
    const missing = await post('/v1/cases/case_nope/disposition', { outcome: 'safe', analyst: 'a' }, 'disp-1')
    expect(missing.statusCode).toBe(404)
    const replayed = await post('/v1/cases/case_nope/disposition', { outcome: 'safe', analyst: 'a' }, 'disp-1')
    expect(replayed.statusCode).toBe(404)
    expect(replayed.headers['idempotent-replayed']).toBe('true')
    now += 24 * 3_600_000 + 1
    const fresh = await post('/v1/score', { event: 'payment', amount: 2 }, 'order-3')
    expect(fresh.statusCode).toBe(200)
    expect(fresh.headers['idempotent-replayed']).toBeUndefined()
  })

  it('answers 409 while the first request with the key is still running', async () => {
    const [a, b] = await Promise.all([
      post('/v1/rules', { id: 'idem_rule', name: 'x', expression: 'true', action: 'flag', status: 'disabled' }, 'rule-1'),
      post('/v1/rules', { id: 'idem_rule', name: 'x', expression: 'true', action: 'flag', status: 'disabled' }, 'rule-1')
    ])
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409])
    expect([a, b].find(r => r.statusCode === 409)!.json().error.code).toBe('idempotency_key_in_use')
  })

  it('answers 409, not a second decision, while the first answer is being stored', async () => {
    const committer = app.state.committer
    const commit = committer.commit.bind(committer)
    let release: () => void = () => {}
    const held = new Promise<void>(resolve => { release = resolve })
    let storing: () => void = () => {}
    const storingStarted = new Promise<void>(resolve => { storing = resolve })
    // Holds the write of the first stored answer: the first request has decided and not yet answered.
    let holding = true
    committer.commit = async ops => {
      if (holding && ops.length === 1 && ops[0]!.key[0] === TAG.idempotency.charCodeAt(0)) { holding = false; storing(); await held }
      return await commit(ops)
    }
    try {
      const first = post('/v1/score', { event: 'payment', amount: 7, user_id: 'u-held' }, 'order-held')
      await storingStarted
      const second = await post('/v1/score', { event: 'payment', amount: 7, user_id: 'u-held' }, 'order-held')
      expect(second.statusCode).toBe(409)
      expect(second.json().error.code).toBe('idempotency_key_in_use')
      release()
      expect((await first).statusCode).toBe(200)
      const replay = await post('/v1/score', { event: 'payment', amount: 7, user_id: 'u-held' }, 'order-held')
      expect(replay.headers['idempotent-replayed']).toBe('true')
    } finally {
      committer.commit = commit
      release()
    }
  })
})

describe('Idempotency-Key records belong to the calling key', () => {
  it('another key of the same tenant never receives a minted secret, and a replay never repeats one', async () => {
    const mint = (key: string, idem: string) => app.server.inject({ method: 'POST', url: '/v1/keys', headers: { authorization: `Bearer ${key}`, 'idempotency-key': idem }, payload: { name: 'minted', scopes: ['score:write'] } })
    const admin = (await app.server.inject({ method: 'POST', url: '/v1/keys', headers: auth(), payload: { name: 'admin-2', scopes: ['keys:manage', 'score:write'] } })).json()
    const first = await mint(admin.secret, 'mint-1')
    expect(first.json().secret).toMatch(/^sk_test_/)
    const replay = await mint(admin.secret, 'mint-1')
    expect(replay.headers['idempotent-replayed']).toBe('true')
    expect(replay.json().id).toBe(first.json().id)
    expect(replay.json().secret).toBeUndefined()
    expect(replay.json().secret_shown_once).toMatch(/shown once/)
    expect(replay.body).not.toContain(first.json().secret)

    // The default test key, same tenant, same Idempotency-Key and body: its own request, not the other's answer.
    const other = await mint('sk_test_contracttestkey0000000001', 'mint-1')
    expect(other.headers['idempotent-replayed']).toBeUndefined()
    expect(other.json().id).not.toBe(first.json().id)
    expect(other.body).not.toContain(first.json().secret)
    // Revoked: the key that minted it can no longer replay anything.
    await app.server.inject({ method: 'POST', url: `/v1/keys/${admin.id}/revoke`, headers: auth() })
    expect((await mint(admin.secret, 'mint-1')).json().error.code).toBe('key_revoked')
  })
})
