import { MockClient } from '@confluentinc/schemaregistry'
import { afterAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { KafkaEventLog } from '../../src/stream/eventlog/kafka.js'
import { decodingOnce, plainProtobufCodec, schemaRegistryCodec, type DecisionCodec } from '../../src/stream/decision-codec.js'
import { decisionsView } from '../../src/stream/decisions-view.js'
import { auth, startTestApp } from '../support/app.js'
import { kafkaBrokersOrSkip, uniqueName } from '../support/kafka.js'
import { readDecisionStream } from '../support/stream.js'
import { parseTransaction, putTransactionOp } from '../../src/stores/transactions.js'
import { type TransactionRecord, decisionHeader, decisionSubject, encodeEvent, decodeEvent } from '../../src/domain/records/decisions.js'

const record: TransactionRecord = {
  trace_id: 'trc_01test',
  tenant_id: 'ten_1',
  livemode: true,
  created_ms: 1_795_000_000_123,
  request: { event: 'payment', amount: 12.5, currency: 'EUR', user_id: 'u1', ip: '2001:db8::1', geo: { country: 'FR', lat: 48.85 }, metadata: { order: 'o-1' }, custom: { card_bin: '411111', tags: ['a', 'b'] } },
  decision: { score: 0.1234, risk_level: 'low', action: 'approve', signals: ['known_device'], rules: [], trace_id: 'trc_01test', latency_ms: 2, shadow: { action: 'flag', rules: ['r_new'] } },
  ruleset_version: 'rs_default_2',
  model_version: 'prior-2026-11-22',
  features: { amount: 12.5, user_count_1h: 3 },
  base_action: 'approve',
  override_gate: null,
  rule_errors: [{ id: 'r_dev', error: 'No such key: device_id' }],
  rollout_buckets: { pack_a: 42.17 },
  origin_id: 'org_1',
  origin_seq: 42
}

describe('decision event serialization', () => {
  it('round-trips a record through plain Protobuf, keeping geo, metadata and custom keys', async () => {
    expect(decodeEvent(encodeEvent(record))).toEqual(record)
    const wire = await plainProtobufCodec.encode('decisions', encodeEvent(record))
    expect(await plainProtobufCodec.decode('decisions', Buffer.from(wire))).toEqual(record)
  })

  it('reads the header fields (trace, tenant, event time) of an encoded record without decoding the rest; refuses bytes without them', () => {
    expect(decisionHeader(encodeEvent(record))).toEqual({ trace_id: record.trace_id, tenant_id: record.tenant_id, created_ms: record.created_ms })
    expect(decisionHeader(encodeEvent({ ...record, created_ms: 0 }))).toMatchObject({ created_ms: 0 })
    expect(() => decisionHeader(encodeEvent({ ...record, tenant_id: '' }))).toThrow(/tenant_id/)
    expect(() => decisionHeader(Buffer.from('not protobuf at all'))).toThrow()
  })

  it('reads what a decision is about (trace, tenant, mode, event time, request) without decoding the rest; refuses bytes without them', () => {
    const { trace_id, tenant_id, livemode, created_ms, request } = record
    expect(decisionSubject(encodeEvent(record))).toEqual({ trace_id, tenant_id, livemode, created_ms, request })
    expect(decisionSubject(encodeEvent({ ...record, livemode: !livemode }))).toMatchObject({ livemode: !livemode })
    expect(decisionSubject(encodeEvent({ ...record, request: { event: 'login' } })).request).toEqual({ event: 'login' })
    expect(() => decisionSubject(encodeEvent({ ...record, trace_id: '' }))).toThrow(/trace_id/)
    expect(() => decisionSubject(Buffer.from('not protobuf at all'))).toThrow()
    // Cut anywhere (inside a skipped field too): refused, or, cut after everything it reads, the same subject.
    const whole = encodeEvent(record)
    for (let n = 1; n < whole.length; n++) {
      let read: unknown
      try { read = decisionSubject(whole.subarray(0, n)) } catch { continue }
      expect(read).toEqual({ trace_id, tenant_id, livemode, created_ms, request })
    }
  })

  it('stores a transaction as its Protobuf bytes and still reads one stored as JSON', () => {
    const op = putTransactionOp(record, encodeEvent(record))
    expect(op.type === 'put' && op.value[0]).not.toBe(0x7b)
    expect(op.type === 'put' && parseTransaction(op.value)).toEqual(record)
    expect(parseTransaction(Buffer.from(JSON.stringify(record)))).toEqual(record)
  })

  it('decodes a record once for every consumer: by its value, or by its key when each consumer holds its own copy (Kafka)', async () => {
    let decodes = 0
    const codec = decodingOnce({ ...plainProtobufCodec, decode: async (topic, wire) => { decodes++; return await plainProtobufCodec.decode(topic, wire) } })
    const bytes = encodeEvent(record)
    const key = `${record.tenant_id}:${record.trace_id}`
    const first = await codec.decode('decisions', Buffer.from(bytes), key)
    expect(first).toEqual(record)
    expect(await codec.decode('decisions', Buffer.from(bytes), key)).toBe(first)
    expect(decodes).toBe(1)
    // Without a key, another copy is decoded again; a remembered record is never decoded.
    expect(await codec.decode('decisions', Buffer.from(bytes))).toEqual(record)
    expect(decodes).toBe(2)
    const other = { ...record, trace_id: 'trc_other' }
    codec.remember!(Buffer.from(encodeEvent(other)), other, `${other.tenant_id}:trc_other`)
    expect(await codec.decode('decisions', Buffer.from(encodeEvent(other)), `${other.tenant_id}:trc_other`)).toBe(other)
    expect(decodes).toBe(2)
  })

  it('uses the Confluent wire format through @confluentinc/schemaregistry and registers the schema', async () => {
    const client = new MockClient()
    const codec = await schemaRegistryCodec(client)
    const wire = Buffer.from(await codec.encode('decisions', encodeEvent(record)))
    expect(wire[0]).toBe(0) // magic byte
    const schemaId = wire.readInt32BE(1)
    expect(schemaId).toBeGreaterThan(0)
    const subjects = await client.getAllSubjects()
    expect(subjects).toContain('decisions-value')
    const latest = await client.getLatestSchemaMetadata('decisions-value')
    expect(latest.schemaType).toBe('PROTOBUF')
    expect(await codec.decode('decisions', wire)).toEqual(record)
  })

  it('gives the decisions view what a decision is about and its Protobuf bytes, in plain Protobuf and the Confluent wire format', async () => {
    const { trace_id, tenant_id, livemode, created_ms, request } = record
    const consumed = (value: Buffer) => ({ topic: 'decisions', partition: 0, offset: 0, key: `${tenant_id}:${trace_id}`, value, headers: {}, timestamp: created_ms })
    const view = (codec: DecisionCodec) => decisionsView({ codec, topic: 'decisions', originId: 'org_2', velocity: undefined as never, rulesets: undefined as never })
    const plain = Buffer.from(encodeEvent(record))
    const registry = await schemaRegistryCodec(new MockClient())
    for (const [codec, wire] of [[plainProtobufCodec, plain], [registry, Buffer.from(await registry.encode('decisions', plain))]] as const) {
      const { subject, encoded } = await view(codec).decode(consumed(wire))
      expect(subject).toMatchObject({ trace_id, tenant_id, livemode, created_ms, request })
      expect(decodeEvent(encoded)).toEqual(record)
    }
  })
})

const brokers = await kafkaBrokersOrSkip('schema-registry serde over Kafka')

describe.skipIf(brokers === undefined)('decisions serialized with the registry serde on real Kafka', () => {
  let app: App | undefined
  afterAll(async () => { await app?.close() })

  it('publishes registry-framed records that a registry-aware consumer decodes', async () => {
    const client = new MockClient()
    const codec = await schemaRegistryCodec(client)
    app = await startTestApp({ TRANSPORT: 'kafka', KAFKA_BROKERS: brokers!.join(','), TOPIC_PREFIX: `${uniqueName('sr')}.` }, { codec })
    const res = await app.server.inject({ method: 'POST', url: '/v1/score', headers: auth(), payload: { event: 'login', user_id: 'u-sr', geo: { country: 'DE' } } })
    const traceId = res.json().trace_id as string
    const reader = new KafkaEventLog({ brokers: brokers!, clientId: 'sr-reader' })
    try {
      const stream = await readDecisionStream(reader, app.decisionsTopic, uniqueName('g'), [traceId], codec)
      expect(stream.missing).toEqual([])
      expect(stream.byTrace.get(traceId)!.request).toEqual({ event: 'login', user_id: 'u-sr', geo: { country: 'DE' } })
    } finally {
      await reader.close()
    }
  })
})
