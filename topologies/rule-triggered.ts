import type { TransactionRecord } from '../src/records/transaction-record.js'
import { eventRecord, stableEventId, type ServiceEvent } from '../src/records/service-event.js'
import type { RunningTopology, Topology, TopologyContext } from './index.js'

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
  async start (ctx: TopologyContext): Promise<RunningTopology> {
    const subscription = await ctx.log.subscribe({
      group: `${ctx.topics.prefix}rule-triggered`,
      topics: [ctx.topics.decisions],
      fromBeginning: true,
      onBatch: async records => {
        const out = []
        for (const r of records) {
          const decision = await ctx.codec.decode(r.topic, r.value)
          for (const event of ruleTriggeredEvents(decision)) out.push(eventRecord(decision.tenant_id, event))
        }
        if (out.length > 0) await ctx.log.append(ctx.topics.events, out)
      }
    })
    return { stop: () => subscription.close() }
  }
}
