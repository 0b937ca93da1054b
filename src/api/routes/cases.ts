import type { FastifyError, FastifyInstance } from 'fastify'
import { toApiError } from '../error-handler.js'
import type { Core } from '../../services/core.js'
import { CASE_OUTCOMES, NOTE_MAX_LENGTH, type Case, type CaseSubjects } from '../../domain/cases/types.js'
import { caseFactsOf, caseTransactionOf, type CaseTransaction } from '../../domain/cases/transaction-summary.js'
import { INDEXED_VALUE_MAX } from '../../stores/transaction-records.js'
import type { Subject } from '../../domain/decision/types.js'
import { SUBJECTS } from '../../domain/decision/subjects.js'
import { newId } from '../../domain/ids.js'
import { caseIdsOfSubject, casesOfIds, getCase, lookupCaseIdByTrace, scanCases, scanUnclosed } from '../../stores/cases.js'
import { getTransaction } from '../../stores/transactions.js'
import type { Scope } from '../../domain/scope.js'
import type { Principal } from '../../services/auth.js'
import { ApiError, notFound } from '../../services/errors.js'
import { listQuerySchema, pageOf, type ListQuery } from '../pagination.js'
import { caseResource, DEFAULT_SAFE_DEMOTION_HOURS, runCaseCommand, type CaseCommandDeps } from '../../services/case-commands.js'
import { caseSummary } from '../../services/case-summary.js'
import { disposeCases, MAX_BULK_CASES } from '../../services/bulk-disposition.js'
import { caseIdForTrace } from '../../domain/records/case-commands.js'

const text = (max: number) => ({ type: 'string', minLength: 1, maxLength: max })
/** A score bound in a query string: a number from 0 to 1 (validators.ts reads the text as one). */
const SCORE = { type: 'number', minimum: 0, maximum: 1 }
type CaseListQuery = ListQuery & Partial<Record<Subject, string>> & { status?: string, outcome?: string, assignee?: string, trace_id?: string, rule?: string, min_score?: number, max_score?: number, order?: 'created' | 'score' }
const subjectsSchema = { type: 'object', additionalProperties: false, minProperties: 1, properties: Object.fromEntries(SUBJECTS.map(s => [s, text(256)])) }
const dispositionFields = {
  outcome: { type: 'string', enum: [...CASE_OUTCOMES] },
  analyst: text(200),
  reason: text(1000),
  demote_for_hours: { type: 'integer', minimum: 0, maximum: 24 * 365 }
}
type DispositionBody = { outcome: Case['outcome'] & string, analyst: string, reason?: string, demote_for_hours?: number }

export function caseRoutes (app: FastifyInstance, core: Pick<Core, 'clock' | 'state'> & CaseCommandDeps): void {
  const { state, clock } = core
  async function * caseOfTrace (scope: Scope, traceId: string, startingAfter: string | undefined): AsyncGenerator<Case> {
    const id = await lookupCaseIdByTrace(state, scope, traceId)
    const c = id === undefined ? undefined : await getCase(state, scope, id)
    if (c !== undefined && (startingAfter === undefined || c.id > startingAfter)) yield c
  }
  /**
   * The cases a list reads, in id order after `startingAfter`, narrowest first: the case of a trace id; the
   * cases of a subject value (the subject index); open or in-review ones (the queue index's entries of that
   * status and assignee, so closed cases are never read); otherwise every case of the tenant and mode.
   */
  async function * casesToList (scope: Scope, q: CaseListQuery, startingAfter: string | undefined): AsyncGenerator<Case> {
    if (q.trace_id !== undefined) { yield * caseOfTrace(scope, q.trace_id, startingAfter); return }
    const subject = SUBJECTS.find(s => q[s] !== undefined)
    if (subject !== undefined) { yield * casesOfIds(state, scope, caseIdsOfSubject(state, scope, subject, q[subject]!, startingAfter)); return }
    if (q.status !== 'open' && q.status !== 'in_review') { yield * scanCases(state, scope, startingAfter); return }
    async function * ids () {
      for await (const e of scanUnclosed(state, scope, startingAfter)) if (e.status === q.status && (q.assignee === undefined || e.assignee === q.assignee)) yield e.id
    }
    yield * casesOfIds(state, scope, ids())
  }
  const base = (p: Principal, caseId: string) => ({ id: newId('cmd'), tenant_id: p.tenant, mode: p.mode, case_id: caseId, at_ms: clock(), actor: p.actor, ...(p.name === undefined ? {} : { actor_name: p.name }) })
  const disposition = (p: Principal, caseId: string, body: DispositionBody) => {
    const { outcome, analyst, reason = '', demote_for_hours: hours = DEFAULT_SAFE_DEMOTION_HOURS } = body
    return { ...base(p, caseId), type: 'disposition' as const, outcome, analyst, reason, demote_for_ms: hours * 3_600_000 }
  }

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
    let facts: { rules: string[], score: number | null, transaction: CaseTransaction | null } = { rules: [], score: null, transaction: null }
    let subjects = request.body.subjects
    if (traceId !== undefined) {
      const tx = await getTransaction(state, request.scope, traceId)
      if (tx === undefined) throw new ApiError('resource_missing', `No such transaction: '${traceId}'`, 'trace_id')
      const { subjects: ofDecision, ...rest } = caseFactsOf(tx.request, tx.decision)
      subjects = { ...ofDecision, ...subjects }
      facts = rest
    }
    if (subjects === undefined) throw new ApiError('parameter_missing', "Give 'trace_id' or 'subjects'.", 'trace_id')
    const caseId = traceId === undefined ? newId('case', clock()) : caseIdForTrace(traceId)
    return runCaseCommand(core, { ...base(p, caseId), type: 'open', trace_id: traceId ?? null, reason, opened_by: 'analyst', ...facts, subjects }, request.id)
  })

  app.get<{ Querystring: CaseListQuery }>('/v1/cases', {
    config: { scope: 'cases:read' },
    schema: {
      querystring: {
        ...listQuerySchema,
        properties: {
          ...listQuerySchema.properties,
          status: { type: 'string', enum: ['open', 'in_review', 'closed'] },
          outcome: { type: 'string', enum: [...CASE_OUTCOMES] },
          assignee: text(200),
          trace_id: text(64),
          rule: text(200),
          min_score: SCORE,
          max_score: SCORE,
          order: { type: 'string', enum: ['created', 'score'] },
          ...Object.fromEntries(SUBJECTS.map(s => [s, { ...text(INDEXED_VALUE_MAX), description: `Only cases about this ${s === 'card' ? 'card fingerprint' : s.replace('_id', '')}.` }]))
        }
      }
    }
  }, async request => {
    const scope = request.scope
    const q = request.query
    const [min, max] = [q.min_score ?? 0, q.max_score ?? 1]
    const matches = (c: Case) => (q.status === undefined || c.status === q.status) && (q.outcome === undefined || c.outcome === q.outcome) &&
      (q.assignee === undefined || c.assignee === q.assignee) && (q.rule === undefined || c.rules.includes(q.rule)) &&
      ((q.min_score === undefined && q.max_score === undefined) || (c.score != null && c.score >= min && c.score <= max)) &&
      SUBJECTS.every(s => q[s] === undefined || c.subjects[s] === q[s])
    if (q.order === 'score') {
      // Highest score first (then oldest): every matching case of the tenant and mode is read and sorted.
      const all: Case[] = []
      for await (const c of casesToList(scope, q, undefined)) if (matches(c)) all.push(c)
      all.sort((x, y) => (y.score ?? -1) - (x.score ?? -1) || (x.id < y.id ? -1 : 1))
      const limit = q.limit ?? 10
      const from = q.starting_after === undefined ? 0 : all.findIndex(c => c.id === q.starting_after) + 1
      const data = from === 0 && q.starting_after !== undefined ? [] : all.slice(from, from + limit)
      return { object: 'list', url: '/v1/cases', has_more: from + limit < all.length, data: data.map(c => caseResource(c, false)) }
    }
    const page = await pageOf(casesToList(scope, q, q.starting_after), matches, q)
    return { object: 'list', url: '/v1/cases', has_more: page.has_more, data: page.data.map(c => caseResource(c, false)) }
  })

  app.get<{ Querystring: { assignee?: string } }>('/v1/cases/summary', {
    config: { scope: 'cases:read' },
    schema: { querystring: { type: 'object', additionalProperties: false, properties: { assignee: { ...text(200), description: 'Also count the cases in review assigned to this assignee.' } } } }
  }, request => caseSummary(state, request.scope, clock(), request.query.assignee))

  app.get<{ Params: { id: string } }>('/v1/cases/:id', { config: { scope: 'cases:read' } }, async request => {
    const c = await getCase(state, request.scope, request.params.id)
    if (c === undefined) throw notFound('case', request.params.id)
    // Cases opened before their transaction was kept on them: read it from the decision, if it is still kept.
    if (c.transaction === undefined && c.trace_id !== null) {
      const tx = await getTransaction(state, request.scope, c.trace_id)
      return caseResource(c, true, tx === undefined ? null : caseTransactionOf(tx.request, tx.decision))
    }
    return caseResource(c)
  })

  app.post<{ Params: { id: string }, Body: { body: string } }>('/v1/cases/:id/notes', {
    config: { scope: 'cases:write' },
    schema: { body: { type: 'object', additionalProperties: false, required: ['body'], properties: { body: { type: 'string', minLength: 1, maxLength: NOTE_MAX_LENGTH, pattern: '^\\s*[^\\s\\u0000][^\\u0000]*$', description: 'Not blank; no NUL character.' } } } }
  }, request => runCaseCommand(core, { ...base(request.caller, request.params.id), type: 'note', body: request.body.body }, request.id))

  app.post<{ Body: DispositionBody & { case_ids: string[] } }>('/v1/cases/dispositions', {
    config: { scope: 'cases:write' },
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['case_ids', 'outcome', 'analyst'],
        properties: { case_ids: { type: 'array', minItems: 1, maxItems: MAX_BULK_CASES, uniqueItems: true, items: text(64) }, ...dispositionFields }
      }
    }
  }, request => disposeCases(request.body.case_ids, id => runCaseCommand(core, disposition(request.caller, id, request.body), request.id), err => toApiError(err as FastifyError)))

  app.post<{ Params: { id: string }, Body: { assignee: string } }>('/v1/cases/:id/assign', {
    config: { scope: 'cases:write' },
    schema: { body: { type: 'object', additionalProperties: false, required: ['assignee'], properties: { assignee: text(200) } } }
  }, request => runCaseCommand(core, { ...base(request.caller, request.params.id), type: 'assign', assignee: request.body.assignee }, request.id))

  app.post<{ Params: { id: string }, Body: DispositionBody }>('/v1/cases/:id/disposition', {
    config: { scope: 'cases:write' },
    schema: { body: { type: 'object', additionalProperties: false, required: ['outcome', 'analyst'], properties: dispositionFields } }
  }, request => runCaseCommand(core, disposition(request.caller, request.params.id, request.body), request.id))
}
