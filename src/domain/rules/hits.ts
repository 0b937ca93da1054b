import type { TransactionRecord } from '../records/decisions.js'

export interface RuleHits { enforce: number, shadow: number }

/** How often each rule matched in these decisions: as an enforce rule (decision.rules) or in shadow (decision.shadow.rules). Pure. */
export function countRuleHits (records: Iterable<TransactionRecord>): { decisions: number, hits: Record<string, RuleHits> } {
  const hits: Record<string, RuleHits> = {}
  let decisions = 0
  const of = (id: string) => (hits[id] ??= { enforce: 0, shadow: 0 })
  for (const r of records) {
    decisions++
    for (const id of r.decision.rules) of(id).enforce++
    for (const id of r.decision.shadow?.rules ?? []) of(id).shadow++
  }
  return { decisions, hits }
}
