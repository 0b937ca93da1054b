import { create, fromBinary, toBinary, type DescMessage, type MessageShape } from '@bufbuild/protobuf'
import { caseFactsOf } from '../domain/cases/transaction-summary.js'
import { principalScope } from '../services/auth.js'
import * as grpc from '@grpc/grpc-js'
import type { Core } from '../services/core.js'
import { authenticate } from '../services/authenticate.js'
import { ApiError } from '../services/errors.js'
import type { RateLimiter } from '../services/rate-limit.js'
import { DEFAULT_SAFE_DEMOTION_HOURS, runCaseCommand, type CaseCommandDeps } from '../services/case-commands.js'
import { eventTimeMs, scoreRequestError, toScoreRequest } from '../services/score-requests.js'
import { CASE_OUTCOMES, type CaseOutcome } from '../domain/cases/types.js'
import { DecisionSchema, ShadowOutcomeSchema, type ScoreRequest as ScoreRequestMessage, ScoreRequestSchema } from '../gen/fraud/v1/score_pb.js'
import { toCounterfactual } from '../domain/records/decisions.js'
import { FeedbackRequestSchema, FeedbackResponseSchema } from '../gen/scoring/scorer_pb.js'
import { newId } from '../domain/ids.js'
import type { ScoringService } from '../services/scoring-service.js'
import { getCase } from '../stores/cases.js'
import { getTransaction } from '../stores/transactions.js'
import { caseIdForTrace } from '../domain/records/case-commands.js'
import { GrpcCellForwarder, type UnaryMethod } from './cell-forwarding.js'

/** A request message that could not be decoded; grpc-js would answer INTERNAL to a throwing deserializer. */
const UNDECODABLE = Symbol('undecodable')

const method = <I extends DescMessage, O extends DescMessage>(name: string, input: I, output: O) => ({
  path: `/scoring.Scorer/${name}`,
  requestStream: false,
  responseStream: false,
  requestSerialize: (m: MessageShape<I>) => Buffer.from(toBinary(input, m)),
  requestDeserialize: (b: Buffer): MessageShape<I> => {
    try {
      return fromBinary(input, b)
    } catch {
      return { [UNDECODABLE]: true } as unknown as MessageShape<I>
    }
  },
  responseSerialize: (m: MessageShape<O>) => Buffer.from(toBinary(output, m)),
  responseDeserialize: (b: Buffer) => fromBinary(output, b)
})

/** scoring.Scorer (schemas/scoring/scorer.proto), serialized with the protobuf-es generated messages. */
export const scorerDefinition = {
  score: method('Score', ScoreRequestSchema, DecisionSchema),
  feedback: method('Feedback', FeedbackRequestSchema, FeedbackResponseSchema)
}

const STATUS_OF: Record<number, grpc.status> = {
  400: grpc.status.INVALID_ARGUMENT,
  401: grpc.status.UNAUTHENTICATED,
  403: grpc.status.PERMISSION_DENIED,
  404: grpc.status.NOT_FOUND,
  409: grpc.status.FAILED_PRECONDITION,
  413: grpc.status.INVALID_ARGUMENT,
  422: grpc.status.FAILED_PRECONDITION,
  429: grpc.status.RESOURCE_EXHAUSTED,
  503: grpc.status.UNAVAILABLE
}

function toStatus (err: unknown): Partial<grpc.StatusObject> {
  const e = err instanceof ApiError ? err : new ApiError('internal_error', 'An internal error occurred.')
  const metadata = new grpc.Metadata()
  metadata.set('error-code', e.code)
  if (e.param !== undefined) metadata.set('error-param', e.param)
  return { code: STATUS_OF[e.statusCode] ?? grpc.status.INTERNAL, details: e.message, metadata }
}

/** The REST body a gRPC ScoreRequest stands for: named fields, then custom keys back at the top level. */
function restBody (m: ScoreRequestMessage): Record<string, unknown> {
  const body: Record<string, unknown> = { ...(m.custom ?? {}), event: m.event }
  const optional = { amount: m.amount, currency: m.currency, user_id: m.userId, ip: m.ip, device_id: m.deviceId, email: m.email, geo: m.geo, metadata: m.metadata, event_time: m.eventTime === undefined ? undefined : Number(m.eventTime) }
  for (const [k, v] of Object.entries(optional)) if (v !== undefined) body[k] = v
  return body
}

export interface GrpcServer { port: number, close(): Promise<void> }

/** Serves scoring.Scorer on its own port: same keys, scopes, rate limits and decisions as REST. */
/** A call authenticated here for a tenant of another cell: forwarded there (cell-forwarding.ts). */
class OtherCell extends ApiError {
  constructor (readonly tenant: string, readonly cell: number) {
    super('cell_unavailable', `This account lives in cell ${cell}, which did not take the call. Retry in a moment.`)
  }
}

export async function startGrpc (core: Pick<Core, 'clock' | 'state' | 'tenantDirectory'> & CaseCommandDeps, service: ScoringService, limiter: RateLimiter, host: string, port: number, cells?: GrpcCellForwarder): Promise<GrpcServer> {
  const server = new grpc.Server()
  const auth = async (call: grpc.ServerUnaryCall<unknown, unknown>, scope: string) => {
    const principal = await authenticate(core, limiter, String(call.metadata.get('authorization')[0] ?? ''), scope, () => {})
    const home = core.tenantDirectory.cellOf(principal.tenant)
    if (home !== (cells?.cell ?? 0)) throw new OtherCell(principal.tenant, home)
    return principal
  }
  const unary = <I, O>(method: UnaryMethod, handler: (call: grpc.ServerUnaryCall<I, O>) => Promise<O>) =>
    (call: grpc.ServerUnaryCall<I, O>, callback: grpc.sendUnaryData<O>) => {
      if ((call.request as { [UNDECODABLE]?: true })[UNDECODABLE] === true) {
        callback(toStatus(new ApiError('malformed_request', 'The request message is not valid Protobuf for this method (strings must be valid UTF-8).')), null)
        return
      }
      handler(call).then(result => callback(null, result), err => {
        // Another cell's tenant: its cell answers, once (a forwarded call is never forwarded again).
        if (err instanceof OtherCell && cells !== undefined && !GrpcCellForwarder.wasForwarded(call.metadata)) cells.forward(method, call as never, err.tenant, err.cell, callback as never)
        else callback(toStatus(err), null)
      })
    }

  server.addService(scorerDefinition as unknown as grpc.ServiceDefinition, {
    score: unary<ScoreRequestMessage, MessageShape<typeof DecisionSchema>>(scorerDefinition.score as unknown as UnaryMethod, async call => {
      const startedAt = performance.now()
      const p = await auth(call as never, 'score:write')
      const body = restBody(call.request)
      const invalid = scoreRequestError(body)
      if (invalid !== undefined) throw invalid
      const request = toScoreRequest(body)
      const d = await service.score({ scope: principalScope(p), traceId: newId('trc'), request, nowMs: eventTimeMs(request, core.clock()), startedAt })
      return create(DecisionSchema, {
        score: d.score, riskLevel: d.risk_level, action: d.action, signals: d.signals, rules: d.rules, traceId: d.trace_id, latencyMs: d.latency_ms,
        shadow: d.shadow === undefined ? undefined : create(ShadowOutcomeSchema, d.shadow), overrideGate: d.override_gate,
        counterfactual: toCounterfactual(d.counterfactual)
      })
    }),
    feedback: unary<MessageShape<typeof FeedbackRequestSchema>, MessageShape<typeof FeedbackResponseSchema>>(scorerDefinition.feedback as unknown as UnaryMethod, async call => {
      const p = await auth(call as never, 'cases:write')
      const { traceId, outcome, analyst, reason } = call.request
      if (!CASE_OUTCOMES.includes(outcome as CaseOutcome)) throw new ApiError('parameter_invalid', "'outcome' must be fraud, safe or chargeback.", 'outcome')
      if (analyst === '') throw new ApiError('parameter_missing', "Missing required parameter: 'analyst'.", 'analyst')
      const scope = principalScope(p)
      const tx = await getTransaction(core.state, scope, traceId)
      if (tx === undefined) throw new ApiError('resource_missing', `No such transaction: '${traceId}'`, 'trace_id')
      const caseId = caseIdForTrace(traceId)
      const requestId = newId('trc')
      const base = () => ({ id: newId('cmd'), tenant_id: p.tenant, mode: p.mode, case_id: caseId, at_ms: core.clock(), actor: p.actor })
      if (await getCase(core.state, scope, caseId) === undefined) {
        await runCaseCommand(core, { ...base(), type: 'open', trace_id: traceId, reason: 'Opened by feedback', opened_by: 'analyst', ...caseFactsOf(tx.request, tx.decision) }, requestId)
          .catch(err => { if (!(err instanceof ApiError && err.code === 'resource_exists')) throw err })
      }
      const c = await runCaseCommand(core, { ...base(), type: 'disposition', outcome: outcome as CaseOutcome, analyst, reason, demote_for_ms: DEFAULT_SAFE_DEMOTION_HOURS * 3_600_000 }, requestId)
      return create(FeedbackResponseSchema, { caseId: c.id, status: c.status, outcome: c.outcome ?? '' })
    })
  })
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host}:${port}`, grpc.ServerCredentials.createInsecure(), (err, p) => err === null ? resolve(p) : reject(err)))
  return {
    port: bound,
    close: () => new Promise<void>(resolve => server.tryShutdown(() => { cells?.close(); resolve() }))
  }
}
