import type { FastifyInstance } from 'fastify'
import type { Core } from '../../services/core.js'
import { caseIdForTrace, commandRecord } from '../../stream/records/case-commands.js'
import { CASE_OUTCOMES, type Case, type CaseCommand, type CaseSubjects } from '../../domain/cases/types.js'
import { subjectsOf, SUBJECTS } from '../../domain/decision/subjects.js'
import { newId } from '../../domain/ids.js'
import { getCase, lookupCaseIdByTrace, scanCases } from '../../stores/cases.js'
import { getTransaction } from '../../stores/transactions.js'
import type { Scope } from '../../domain/scope.js'
import type { Principal } from '../auth.js'
import { ApiError, notFound } from '../errors.js'
import { listQuerySchema, pageOf, type ListQuery } from '../pagination.js'
import { publishChange } from '../../services/publish-change.js'

/** Default time a `safe` outcome demotes later flags of the case's subjects (30 days). */
export const DEFAULT_SAFE_DEMOTION_HOURS = 720

export function caseResource (c: Case, withHistory = true) {
  return {
    object: 'case',
    id: c.id,
    livemode: c.mode === 'live',
    trace_id: c.trace_id,
    status: c.status,
    outcome: c.outcome,
    assignee: c.assignee,
    reason: c.reason,
    opened_by: c.opened_by,
    rules: c.rules,
    subjects: c.subjects,
    created: Math.floor(c.created_ms / 1000),
    updated: Math.floor(c.updated_ms / 1000),
    ...(withHistory
      ? { history: c.history.map(({ command_id: _id, at_ms: at, demote_until_ms: until, ...e }) => ({ ...e, at: Math.floor(at / 1000), ...(until === undefined ? {} : { demote_until: Math.floor(until / 1000) }) })) }
      : {})
  }
}

const text = (max: number) => ({ type: 'string', minLength: 1, maxLength: max })
const subjectsSchema = { type: 'object', additionalProperties: false, minProperties: 1, properties: Object.fromEntries(SUBJECTS.map(s => [s, text(256)])) }

/** Sends a command to the case's writer and turns its outcome into the response (or the error it earned); audits it. */
export async function runCaseCommand (core: Core, cmd: CaseCommand, requestId: string) {
  const outcome = await publishChange(core.log, core.topics.caseCommands, core.cases, cmd.id, commandRecord(cmd))
  if (!outcome.accepted) {
    const e = outcome.error!
    throw new ApiError(e.code, e.message, e.code === 'resource_missing' ? 'id' : undefined)
  }
  const c = outcome.case!
  const { id: _id, tenant_id: tenant, mode, case_id: caseId, at_ms: _at, actor, type, ...data } = cmd
  await core.audit.record({ tenant_id: tenant, mode, actor, action: `case.${type}`, object_type: 'case', object_id: caseId, trace_id: requestId, subject_trace_id: c.trace_id, data })
  return caseResource(c)
}

export function caseRoutes (app: FastifyInstance, core: Core): void {
  const { state, clock } = core
  async function * caseOfTrace (scope: Scope, traceId: string, startingAfter: string | undefined): AsyncGenerator<Case> {
    const id = await lookupCaseIdByTrace(state, scope, traceId)
    const c = id === undefined ? undefined : await getCase(state, scope, id)
    if (c !== undefined && (startingAfter === undefined || c.id > startingAfter)) yield c
  }
  const base = (p: Principal, caseId: string) => ({ id: newId('cmd'), tenant_id: p.tenant, mode: p.mode, case_id: caseId, at_ms: clock(), actor: p.key.id })

  app.post<{ Body: { trace_id?: string, subjects?: CaseSubjects, reason?: string } }>('/v1/cases', {
    config: { scope: 'cases:write' },
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        properties: { trace_id: text(64), subjects: subjectsSchema, reason: text(1000) },
        // A case is about a scored transaction (its subjects are taken from it) or about subjects named here, or both.
        anyOf: [{ required: ['trace_id'] }, { required: ['subjects'] }]
      }
    }
  }, async request => {
    const p = request.caller
    const { trace_id: traceId, reason = 'Opened by an analyst' } = request.body
    let subjects = request.body.subjects
    let rules: string[] = []
    if (traceId !== undefined) {
      const tx = await getTransaction(state, request.scope, traceId)
      if (tx === undefined) throw new ApiError('resource_missing', `No such transaction: '${traceId}'`, 'trace_id')
      subjects = { ...subjectsOf(tx.request), ...subjects }
      rules = tx.decision.rules
    }
    if (subjects === undefined) throw new ApiError('parameter_missing', "Give 'trace_id' or 'subjects'.", 'trace_id')
    const caseId = traceId === undefined ? newId('case', clock()) : caseIdForTrace(traceId)
    return runCaseCommand(core, { ...base(p, caseId), type: 'open', trace_id: traceId ?? null, reason, opened_by: 'analyst', rules, subjects }, request.id)
  })

  app.get<{ Querystring: ListQuery & { status?: string, outcome?: string, assignee?: string, trace_id?: string } }>('/v1/cases', {
    config: { scope: 'cases:read' },
    schema: {
      querystring: {
        ...listQuerySchema,
        properties: {
          ...listQuerySchema.properties,
          status: { type: 'string', enum: ['open', 'in_review', 'closed'] },
          outcome: { type: 'string', enum: [...CASE_OUTCOMES] },
          assignee: text(200),
          trace_id: text(64)
        }
      }
    }
  }, async request => {
    const scope = request.scope
    const q = request.query
    const matches = (c: Case) => (q.status === undefined || c.status === q.status) && (q.outcome === undefined || c.outcome === q.outcome) &&
      (q.assignee === undefined || c.assignee === q.assignee)
    const page = await pageOf(q.trace_id === undefined ? scanCases(state, scope, q.starting_after) : caseOfTrace(scope, q.trace_id, q.starting_after), matches, q)
    return { object: 'list', url: '/v1/cases', has_more: page.has_more, data: page.data.map(c => caseResource(c, false)) }
  })

  app.get<{ Params: { id: string } }>('/v1/cases/:id', { config: { scope: 'cases:read' } }, async request => {
    const c = await getCase(state, request.scope, request.params.id)
    if (c === undefined) throw notFound('case', request.params.id)
    return caseResource(c)
  })

  app.post<{ Params: { id: string }, Body: { assignee: string } }>('/v1/cases/:id/assign', {
    config: { scope: 'cases:write' },
    schema: { body: { type: 'object', additionalProperties: false, required: ['assignee'], properties: { assignee: text(200) } } }
  }, request => runCaseCommand(core, { ...base(request.caller, request.params.id), type: 'assign', assignee: request.body.assignee }, request.id))

  app.post<{ Params: { id: string }, Body: { outcome: Case['outcome'] & string, analyst: string, reason?: string, demote_for_hours?: number } }>('/v1/cases/:id/disposition', {
    config: { scope: 'cases:write' },
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['outcome', 'analyst'],
        properties: {
          outcome: { type: 'string', enum: [...CASE_OUTCOMES] },
          analyst: text(200),
          reason: text(1000),
          demote_for_hours: { type: 'integer', minimum: 0, maximum: 24 * 365 }
        }
      }
    }
  }, request => {
    const { outcome, analyst, reason = '', demote_for_hours: hours = DEFAULT_SAFE_DEMOTION_HOURS } = request.body
    return runCaseCommand(core, { ...base(request.caller, request.params.id), type: 'disposition', outcome, analyst, reason, demote_for_ms: hours * 3_600_000 }, request.id)
  })
}
