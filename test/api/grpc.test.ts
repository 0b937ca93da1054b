import { create } from '@bufbuild/protobuf'
import * as grpc from '@grpc/grpc-js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { App } from '../../src/app/app.js'
import { ScoreRequestSchema } from '../../src/gen/fraud/v1/score_pb.js'
import { FeedbackRequestSchema } from '../../src/gen/scoring/scorer_pb.js'
import { scorerDefinition } from '../../src/grpc/scorer-server.js'
import { auth, eventually, startTestApp, TEST_KEY } from '../support/app.js'

let app: App
let client: grpc.Client & Record<string, Function>

const rpc = <T>(name: 'score' | 'feedback', request: unknown, key: string | null = TEST_KEY) => new Promise<{ value?: T, error?: grpc.ServiceError }>(resolve => {
  const metadata = new grpc.Metadata()
  if (key !== null) metadata.set('authorization', `Bearer ${key}`)
  client[name]!(request, metadata, (error: grpc.ServiceError | null, value: T) => resolve(error === null ? { value } : { error }))
})

beforeAll(async () => {
  app = await startTestApp({ GRPC_PORT: '0' })
  const Client = grpc.makeGenericClientConstructor(scorerDefinition as unknown as grpc.ServiceDefinition, 'Scorer')
  client = new Client(`127.0.0.1:${app.grpcPort}`, grpc.credentials.createInsecure()) as never
})
afterAll(async () => {
  client.close()
  await app.close()
})

describe('gRPC scoring.Scorer', () => {
  it('Score: same auth and the same recorded decision as REST', async () => {
    const { value } = await rpc<{ action: string, traceId: string, rules: string[], riskLevel: string, counterfactual: { action: string, changes: Array<{ field: string, from: number, to: number }> } }>('score', create(ScoreRequestSchema, { event: 'payment', amount: 25_000, userId: 'u-grpc', custom: { card_bin: '411111' } }))
    expect(value).toMatchObject({ action: 'flag', rules: ['amount_over_10000'] })
    const tx = (await app.server.inject({ method: 'GET', url: `/v1/transactions/${value!.traceId}`, headers: auth() })).json()
    expect(tx.decision).toMatchObject({ action: 'flag', risk_level: value!.riskLevel, trace_id: value!.traceId })
    expect(value!.counterfactual).toMatchObject({ action: 'approve', changes: [{ field: 'amount', from: 25_000 }] })
    expect(value!.counterfactual.changes[0]!.to).toBe(tx.decision.counterfactual.changes[0].to)
    expect(tx.request.custom).toEqual({ card_bin: '411111' })

    expect((await rpc('score', create(ScoreRequestSchema, { event: 'payment' }), null)).error).toMatchObject({ code: grpc.status.UNAUTHENTICATED })
    expect((await rpc('score', create(ScoreRequestSchema, { event: 'payment' }), 'sk_test_nosuchkey000000000000')).error).toMatchObject({ code: grpc.status.UNAUTHENTICATED })
    const invalid = await rpc('score', create(ScoreRequestSchema, { event: 'payment', ip: 'not-an-ip' }))
    expect(invalid.error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT })
    expect(invalid.error!.metadata.get('error-param')).toEqual(['ip'])
  })

  it('Feedback: sets the outcome of the decision\u2019s case, opening one when there is none', async () => {
    const { value } = await rpc<{ traceId: string }>('score', create(ScoreRequestSchema, { event: 'login', userId: 'u-grpc-fb' }))
    const fb = await rpc<{ caseId: string, status: string, outcome: string }>('feedback', create(FeedbackRequestSchema, { traceId: value!.traceId, outcome: 'fraud', analyst: 'ana', reason: 'confirmed' }))
    expect(fb.value).toMatchObject({ status: 'closed', outcome: 'fraud' })
    const c = (await app.server.inject({ method: 'GET', url: `/v1/cases/${fb.value!.caseId}`, headers: auth() })).json()
    expect(c).toMatchObject({ trace_id: value!.traceId, outcome: 'fraud' })
    // The case keeps the decision's transaction, as one opened by a flag or over HTTP does (the list reads only what is kept).
    const listed = (await app.server.inject({ method: 'GET', url: `/v1/cases?trace_id=${value!.traceId}`, headers: auth() })).json()
    expect(listed.data[0].transaction).toMatchObject({ event: 'login', action: 'approve' })
    expect((await rpc('feedback', create(FeedbackRequestSchema, { traceId: value!.traceId, outcome: 'maybe', analyst: 'a' }))).error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT })
    const again = await rpc('feedback', create(FeedbackRequestSchema, { traceId: value!.traceId, outcome: 'safe', analyst: 'a' }))
    expect(again.error).toMatchObject({ code: grpc.status.FAILED_PRECONDITION })
    expect(again.error!.metadata.get('error-code')).toEqual(['invalid_transition'])
    await eventually(async () => (await app.server.inject({ method: 'GET', url: '/v1/lists/deny_users', headers: auth() })).json().items.includes('u-grpc-fb') || undefined, 10000, 'deny list')
  })
})
