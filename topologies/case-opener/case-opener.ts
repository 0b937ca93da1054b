import { caseWriter } from './case-writer.js'
import { caseFactsOf } from '../../src/domain/cases/transaction-summary.js'
import { mapDecisions, type Topology } from '../../src/stream/topology.js'
import type { TransactionRecord } from '../../src/domain/records/decisions.js'
import { caseIdForTrace, commandRecord, type CaseCommand } from '../../src/domain/records/case-commands.js'

/** The open command of a `flag` decision's case. Pure; the same decision always gives the same command. */
export function openCommandFor (d: TransactionRecord): CaseCommand {
  return {
    id: `cmd_open_${d.trace_id}`,
    type: 'open',
    tenant_id: d.tenant_id,
    mode: d.livemode ? 'live' : 'test',
    case_id: caseIdForTrace(d.trace_id),
    at_ms: d.created_ms,
    actor: 'case-opener',
    trace_id: d.trace_id,
    reason: d.decision.rules.length > 0 ? `Flagged by rules: ${d.decision.rules.join(', ')}` : `Flagged at ${d.decision.risk_level} risk (score ${d.decision.score})`,
    opened_by: 'rule',
    ...caseFactsOf(d.request, d.decision)
  }
}

/**
 * Cases: every `flag` decision on the decisions stream becomes an open command on `case-commands` (case id
 * derived from the trace id, so idempotent), and the same topology is the single writer that applies every
 * case command (flags, analysts' opens, assignments, dispositions) in the partition that owns the case id.
 * It owns no local store: the state of a case is the shared cases store (src/stores/cases.ts), which every
 * process materializes from the `cases` topic the writer emits (case-writer.ts).
 */
export const caseOpener: Topology = {
  name: 'case-opener',
  description: 'opens a case per flag decision; single writer of case transitions; case.created / case.dispositioned events, feedback labels',
  stores: [],
  build: ctx => ({
    processors: [
      mapDecisions(ctx, 'case-opener', ctx.topics.caseCommands, d => d.decision.action === 'flag' ? [commandRecord(openCommandFor(d))] : []),
      caseWriter(ctx)
    ]
  })
}
