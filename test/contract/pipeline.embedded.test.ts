import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { auth, eventually, startTestApp } from '../support/app.js'
import { readDecisionStream } from '../support/stream.js'
import { plainProtobufCodec, type DecisionCodec } from '../../src/stream/decision-codec.js'
import { encodeEvent } from '../../src/domain/records/decisions.js'
import { transactionKey } from '../../src/stores/transactions.js'
import { scopeOf } from '../../src/domain/scope.js'
import { decodeFirstSeen, deviceSeenKey } from '../../src/stores/device-history.js'
import { lastLocationKey, parseLastLocation } from '../../src/stores/last-location.js'

let app: App
beforeAll(async () => { app = await startTestApp() })
afterAll(async () => { await app.close() })

describe('decisions stream on the embedded log', () => {
  it('publishes every returned decision to the decisions topic with its inputs and versions', async () => {
    const traces: string[] = []
    await Promise.all(Array.from({ length: 60 }, async (_, i) => {
      const res = await app.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload: { event: 'payment', amount: i, user_id: `u${i % 7}` } })
      traces.push(res.json().trace_id)
    }))
    await eventually(() => app.relay.pending === 0 || undefined, 10000, 'outbox drained')
    const stream = await readDecisionStream(app.log, app.decisionsTopic, 'test-reader', traces)
    expect(stream.missing).toEqual([])
    expect(stream.raw).toBe(60)
    const one = stream.byTrace.get(traces[0]!)!
    expect(one.origin_id).toBe(app.identity.originId)
    expect(one.ruleset_version).toBe('rs_default_2')
    expect(one.request.event).toBe('payment')
    // The instance's own materializer skips its own decisions (already applied on the request path).
    expect(app.materializer.processed).toBe(0)
  })
})

describe('decisions this process made, on the embedded log', () => {
  it('reach its topologies as the records it made: none is decoded again', async () => {
    let decoded = 0
    const counting: DecisionCodec = { ...plainProtobufCodec, decode: async (topic, wire) => { decoded++; return await plainProtobufCodec.decode(topic, wire) } }
    const own = await startTestApp({}, { codec: counting })
    try {
      // A flagged payout: the case-opener (and every other topology on decisions) reads it.
      const res = await own.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload: { event: 'payout', amount: 50_000, user_id: 'u-own' } })
      expect(res.json().action).toBe('flag')
      const trace = res.json().trace_id as string
      await eventually(async () => (await own.server.inject({ method: 'GET', url: `/v1/cases?trace_id=${trace}`, headers: auth() })).json().data?.length === 1 || undefined, 10000, 'the case of the flagged payout')
      expect(decoded).toBe(0)
    } finally {
      await own.close()
    }
  })
})

describe("another instance's decisions, on the embedded log", () => {
  it('are stored as the bytes that instance published, fields this version does not know included', async () => {
    const res = await app.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload: { event: 'payment', amount: 12, user_id: 'u-bytes' } })
    const own = res.json().trace_id as string
    await eventually(() => app.relay.pending === 0 || undefined, 10000, 'outbox drained')
    const made = (await readDecisionStream(app.log, app.decisionsTopic, 'test-reader-bytes', [own])).byTrace.get(own)!
    const other = { ...made, trace_id: 'trace_from_another_origin', origin_id: 'org_other', origin_seq: 1 }
    // Field 1000, varint 1: what a newer schema might add.
    const published = Buffer.concat([encodeEvent(other), Buffer.from([0xc0, 0x3e, 0x01])])
    const before = app.materializer.processed
    await app.log.append(app.decisionsTopic, [{ key: `${other.tenant_id}:${other.trace_id}`, value: published, headers: { origin: 'org_other', seq: '1', trace_id: other.trace_id } }])
    await eventually(() => app.materializer.processed > before || undefined, 10000, "the other origin's decision materialized")
    const [stored] = await app.state.getMany([transactionKey(scopeOf(other), other.trace_id)])
    expect(stored).toEqual(published)
  })

  it("keep the time a user's device was first seen and the user's latest position, whatever order they come in", async () => {
    const res = await app.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload: { event: 'payment', amount: 12, user_id: 'u-dev', device_id: 'd-dev', geo: { lat: 48.85, lon: 2.35 } } })
    const own = res.json().trace_id as string
    await eventually(() => app.relay.pending === 0 || undefined, 10000, 'outbox drained')
    const made = (await readDecisionStream(app.log, app.decisionsTopic, 'test-reader-device', [own])).byTrace.get(own)!
    const key = deviceSeenKey(scopeOf(made), made.request)!
    const firstSeen = async () => decodeFirstSeen((await app.state.get(key))!)
    const lastPosition = async () => parseLastLocation(await app.state.get(lastLocationKey(scopeOf(made), made.request)!))
    expect(await firstSeen()).toBe(made.created_ms)
    expect(await lastPosition()).toEqual({ point: { lat: 48.85, lon: 2.35 }, at_ms: made.created_ms })
    let seq = 10
    const materialize = async (createdMs: number, geo = made.request.geo) => {
      const other = { ...made, request: { ...made.request, geo }, trace_id: `trace_device_${seq}`, origin_id: 'org_other', origin_seq: seq, created_ms: createdMs }
      await app.log.append(app.decisionsTopic, [{ key: `${other.tenant_id}:${other.trace_id}`, value: Buffer.from(encodeEvent(other)), headers: { origin: 'org_other', seq: String(seq++), trace_id: other.trace_id } }])
      // Its transaction is written in the same atomic write as what it changes: once stored, the rest is too.
      await eventually(async () => await app.state.get(transactionKey(scopeOf(other), other.trace_id)), 10000, "the other origin's decision materialized")
    }
    const london = { lat: 51.5, lon: -0.12 }
    const rome = { lat: 41.9, lon: 12.5 }
    await materialize(made.created_ms + 86_400_000, london)
    expect(await firstSeen()).toBe(made.created_ms)
    expect(await lastPosition()).toEqual({ point: london, at_ms: made.created_ms + 86_400_000 })
    await materialize(made.created_ms - 3_600_000, rome)
    expect(await firstSeen()).toBe(made.created_ms - 3_600_000)
    expect(await lastPosition()).toEqual({ point: london, at_ms: made.created_ms + 86_400_000 })
    // The request path keeps them too: a backdated request moves the first sight earlier, not the position back.
    const backdated = Math.floor(made.created_ms / 1000) - 7_200
    const madrid = { lat: 40.4, lon: -3.7 }
    const late = await app.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload: { event: 'payment', amount: 12, user_id: 'u-dev', device_id: 'd-dev', geo: madrid, event_time: backdated } })
    expect(late.statusCode).toBe(200)
    expect(await firstSeen()).toBe(backdated * 1000)
    expect(await lastPosition()).toEqual({ point: london, at_ms: made.created_ms + 86_400_000 })
  })
})
