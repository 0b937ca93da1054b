import type { ControlPlane } from '../../src/stream/control-plane.js'
import type { CommandOutcome } from '../../src/stores/cases.js'
import { parseJson, type View } from '../../src/stream/view.js'
import type { Processor } from '../../src/stream/processor.js'
import { getCase } from '../../src/stores/cases.js'
import type { StateDb } from '../../src/stores/state-db.js'
import type { Scope } from '../../src/domain/scope.js'
import { caseEffects, type CaseEffects } from '../../src/domain/cases/effects.js'
import { applyCaseCommand } from '../../src/domain/cases/transitions.js'
import type { Case } from '../../src/domain/cases/types.js'
import { eventRecord } from '../../src/domain/records/events.js'
import type { CaseCommand } from '../../src/domain/records/case-commands.js'
import { caseStateRecord, type CaseRecord } from '../../src/domain/records/cases.js'
import { labelRecord } from '../../src/domain/records/feedback.js'

export interface CaseWriterDeps {
  state: StateDb
  control: ControlPlane
  cases: View<CaseRecord, CommandOutcome>
  topics: { prefix: string, caseCommands: string, cases: string, events: string, feedback: string }
  clock: () => number
}

/**
 * The single writer of cases: consumes one partition of `case-commands` at a time (its consumer group gives
 * each partition to one member), applies each command to the case's latest state and publishes the new state
 * on `cases`, then the events and labels it causes, then adds deny-list entries. Before a batch it waits until
 * this instance has materialized everything already on `cases`, so a member that just took the partition over
 * continues from the previous owner's last state. A command seen again after a crash is recognised in the
 * case's history and its effects are published again with the same ids (consumers de-duplicate).
 * The batch's working state is the latest state of each case it changed.
 */
export function caseWriter (deps: CaseWriterDeps): Processor<CaseCommand, Map<string, Case | undefined>> {
  return {
    group: `${deps.topics.prefix}case-writer`,
    topics: [deps.topics.caseCommands],
    beforeBatch: () => deps.cases.catchUp(),
    local: () => new Map(),
    decode: record => parseJson<CaseCommand>(record.value),
    async process (cmd, _record, batch) {
      const latest = batch.local
      const scope: Scope = { tenant: cmd.tenant_id, mode: cmd.mode }
      const id = `${cmd.tenant_id}\u0000${cmd.mode}\u0000${cmd.case_id}`
      const current = latest.has(id) ? latest.get(id) : await getCase(deps.state, scope, cmd.case_id)
      const done = current?.history.find(e => e.command_id === cmd.id)
      let effects: CaseEffects | undefined
      if (done !== undefined) {
        batch.emit(deps.topics.cases, caseStateRecord(cmd, { case: current!, command: { id: cmd.id, accepted: true } }))
        effects = caseEffects(current!, done)
      } else {
        const t = applyCaseCommand(current, cmd)
        if (t.accepted) {
          latest.set(id, t.case)
          batch.emit(deps.topics.cases, caseStateRecord(cmd, { case: t.case, command: { id: cmd.id, accepted: true } }))
          effects = caseEffects(t.case, t.entry)
        } else {
          batch.emit(deps.topics.cases, caseStateRecord(cmd, { case: current ?? null, command: { id: cmd.id, accepted: false, error: t.error } }))
        }
      }
      if (effects === undefined) return
      for (const e of effects.events) batch.emit(deps.topics.events, eventRecord(cmd.tenant_id, e))
      if (effects.label !== undefined) batch.emit(deps.topics.feedback, labelRecord(effects.label))
      const items = effects.denyListItems
      if (items.length > 0) batch.afterCommit(() => denyList(deps, scope, cmd.case_id, items))
    }
  }
}

/** Adds a fraud case's subjects to the tenant's deny lists, each item its own change; none when all are there. */
async function denyList (deps: CaseWriterDeps, scope: Scope, caseId: string, items: CaseEffects['denyListItems']): Promise<void> {
  const { lists } = (await deps.control.activeRuleset(scope)).ruleset
  const missing = items.filter(([alias, value]) => lists[alias] !== undefined && !lists[alias]!.items.includes(value))
  if (missing.length === 0) return
  await deps.control.changeListItems(scope, `case:${caseId}`, missing.map(([alias, value]) => ({ alias, value, op: 'add' })), deps.clock())
}
