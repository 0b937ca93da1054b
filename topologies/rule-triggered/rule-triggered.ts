import { mapDecisions, type Topology } from '../../src/stream/topology.js'
import type { TransactionRecord } from '../../src/domain/records/decisions.js'
import { stableEventId, type ServiceEvent, eventRecord } from '../../src/domain/records/events.js'

/** Stable across replays and retries: the same hit always yields the same event id. */
export function ruleTriggeredId (traceId: string, ruleId: string, mode: 'enforce' | 'shadow'): string {
  return stableEventId('rule.triggered', traceId, ruleId, mode)
}

/** One `rule.triggered` event per enforce or shadow rule that matched a decision. Pure. */
export function ruleTriggeredEvents (d: TransactionRecord): ServiceEvent[] {
  const hit = (ruleId: string, mode: 'enforce' | 'shadow', action: string): ServiceEvent => ({
    id: ruleTriggeredId(d.trace_id, ruleId, mode),
    type: 'rule.triggered',
    created: Math.floor(d.created_ms / 1000),
    livemode: d.livemode,
    data: { trace_id: d.trace_id, rule_id: ruleId, mode, action, ruleset_version: d.ruleset_version }
  })
  return [
    ...d.decision.rules.map(id => hit(id, 'enforce', d.decision.action)),
    ...(d.decision.shadow?.rules ?? []).map(id => hit(id, 'shadow', d.decision.shadow!.action))
  ]
}

/** Consumes `decisions`, produces `rule.triggered` on `events`. At-least-once; receivers de-duplicate by event id. */
export const ruleTriggered: Topology = {
  name: 'rule-triggered',
  description: 'rule.triggered events for enforce and shadow rule hits on the decisions stream',
  stores: [],
  build: ctx => ({
    processors: [mapDecisions(ctx, 'rule-triggered', ctx.topics.events, d => ruleTriggeredEvents(d).map(event => eventRecord(d.tenant_id, event)))]
  })
}
