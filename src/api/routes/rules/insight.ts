import type { FastifyPluginAsync } from 'fastify'
import type { ControlPlane } from '../../../stream/control-plane.js'
import { countPackHits, countRuleHits } from '../../../domain/rules/hits.js'
import type { Ruleset } from '../../../domain/decision/types.js'
import type { StateDb } from '../../../stores/state-db.js'
import { parseTransactionHits, transactionsBetween } from '../../../stores/transactions.js'
import type { DecisionHits } from '../../../domain/records/decisions.js'
import { RuleJobs } from '../../../services/rule-jobs.js'

/** At most this many ruleset versions are read to count the packs' hits (the newest ones). */
const PACK_VERSIONS_MAX = 64

/** At most this many decisions are counted by GET /v1/rules/hits (the answer says when it stopped there). */
const HITS_MAX = 200_000

/**
 * What an editor of rules asks while working: whether an expression compiles (POST /v1/rules/validate, with the
 * line and column of the first error, cheap enough to call as one types; checked in the rule worker, off the
 * event loop: services/rule-jobs.ts) and how often each rule matched in the last hours, enforced and in shadow,
 * and each rollout pack's current run (GET /v1/rules/hits, counted from the stored decisions).
 */
export const ruleInsightRoutes: FastifyPluginAsync<{ state: StateDb, clock: () => number, control: Pick<ControlPlane, 'activeRuleset' | 'rulesetAt'> }> = async (app, { state, clock, control }) => {
  const jobs = new RuleJobs()
  app.addHook('onClose', async () => { await jobs.close() })
  app.post<{ Body: { expression: string } }>('/v1/rules/validate', {
    config: { scope: 'rules:read' },
    schema: { body: { type: 'object', additionalProperties: false, required: ['expression'], properties: { expression: { type: 'string', minLength: 1, maxLength: 4000 } } } }
  }, async request => {
    const { lists } = (await control.activeRuleset(request.scope)).ruleset
    const checked = await jobs.validate(request.body.expression, Object.keys(lists))
    if (checked.valid) return { object: 'expression_check', valid: true, error: null, cost: checked.cost }
    const { message, line, column, kind } = checked.error
    return { object: 'expression_check', valid: false, error: { message, line, column, code: kind === 'cost' ? 'expression_too_costly' : 'parameter_invalid' }, cost: null }
  })

  app.get<{ Querystring: { hours?: number } }>('/v1/rules/hits', {
    config: { scope: 'rules:read' },
    schema: { querystring: { type: 'object', additionalProperties: false, properties: { hours: { type: 'integer', minimum: 1, maximum: 168, description: 'The window, in hours back from now (default 24).' } } } }
  }, async request => {
    const hours = request.query.hours ?? 24
    const to = clock()
    const from = to - hours * 3_600_000
    const records: DecisionHits[] = []
    for await (const r of transactionsBetween(state, request.scope, from, to + 1, HITS_MAX + 1, parseTransactionHits)) records.push(r)
    const truncated = records.length > HITS_MAX
    const counted = records.slice(0, HITS_MAX)
    const { decisions, hits } = countRuleHits(counted)
    // A decision counts for the packs the ruleset version it was decided with ran: each version read once, and
    // only its rollouts kept; at most PACK_VERSIONS_MAX versions, the newest (a tenant saving a rule between
    // every two decisions makes as many versions as decisions), the rest said by `truncated`.
    const labels = new Set<string>()
    for (const r of counted) if (Object.keys(r.rollout_buckets).length > 0) { labels.delete(r.ruleset_version); labels.add(r.ruleset_version) }
    const read = [...labels].slice(-PACK_VERSIONS_MAX)
    const versions = new Map<string, Pick<Ruleset, 'rollouts'> | undefined>()
    for (const label of read) versions.set(label, { rollouts: (await control.rulesetAt(request.scope, label))?.rollouts })
    const { ruleset } = await control.activeRuleset(request.scope)
    const packs = countPackHits(counted, ruleset.rollouts ?? {}, label => versions.get(label))
    return { object: 'rule_hits', from: Math.floor(from / 1000), to: Math.floor(to / 1000), decisions, truncated: truncated || labels.size > read.length, hits, packs }
  })
}
