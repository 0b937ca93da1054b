import { INPUT_SET } from '../../src/domain/model/inputs.js'
import { storedValues } from '../../src/domain/model/stored-inputs.js'
import type { Scope } from '../../src/domain/scope.js'
import type { FeedbackLabel } from '../../src/domain/records/feedback.js'
import { TAG } from '../../src/stores/keys.js'
import { tenantStore } from '../../src/stores/named-store.js'
import type { BatchWrites } from '../../src/stream/batch-writes.js'

/**
 * What the trainer keeps per decision: when the service recorded it (t; the event time in rows kept before
 * recorded_ms), its input values for the linear model (x) and for the trees (z; absent in rows kept before
 * trees) in the order of the lists of input schema version v (src/domain/model/input-schemas.ts; absent: 1),
 * the score the service answered it with (s: the model's score, decision.score; absent in rows kept before it),
 * the label it was learned with (set when it matured, or later by a chargeback), a label that came before it
 * matured, held until then (h), and the guarded rollout runs one of whose rules it matched (g;
 * rollout-guard.ts) and whether the guard counted it as matured (gm). A late decision (late: 1) keeps only t,
 * so that a label about it is known to be left unlearned rather than waiting for it.
 * Read, x and z are in the current inputs' order (by name, an input added since at its default).
 */
export interface Row { t: number, x: number[], z?: number[], v?: number, s?: number, learned?: 0 | 1, h?: 0 | 1, g?: string[], gm?: 1, late?: 1 }

/** Each decision's row, by scope and trace id. */
export const ROWS = tenantStore('feedback.rows', TAG.learner, 'r')
/** A label that came before its decision, kept until the decision comes (FeedbackLabel as JSON). */
export const PENDING_LABELS = tenantStore('feedback.pending-labels', TAG.learner, 'p')

const rowKey = (s: Scope, trace: string) => ROWS.key(s.tenant, s.mode, trace)
const pendingKey = (s: Scope, trace: string) => PENDING_LABELS.key(s.tenant, s.mode, trace)
const json = (v: unknown) => Buffer.from(JSON.stringify(v))

export async function hasRow (writes: BatchWrites, scope: Scope, trace: string): Promise<boolean> {
  return await writes.get(rowKey(scope, trace)) !== undefined
}

export async function readRow (writes: BatchWrites, scope: Scope, trace: string): Promise<Row | undefined> {
  const raw = await writes.get(rowKey(scope, trace))
  return raw === undefined ? undefined : currentRow(JSON.parse(raw.toString()) as Row)
}

/** A stored row with its values in the current inputs' order. */
function currentRow (row: Row): Row {
  if (row.v === INPUT_SET.version || row.late === 1) return row
  return { ...row, v: INPUT_SET.version, x: storedValues(row.x, row.v, 'linear'), z: row.z === undefined ? undefined : storedValues(row.z, row.v, 'trees') }
}

/** Stores a row whose values are in the current inputs' order, under their schema version. */
export function writeRow (writes: BatchWrites, scope: Scope, trace: string, row: Row): void {
  writes.put(rowKey(scope, trace), json(row.late === 1 || row.v === INPUT_SET.version ? row : { ...row, v: INPUT_SET.version }))
}

export function deleteRow (writes: BatchWrites, scope: Scope, trace: string): void {
  writes.del(rowKey(scope, trace))
}

export async function readPendingLabel (writes: BatchWrites, scope: Scope, trace: string): Promise<FeedbackLabel | undefined> {
  const raw = await writes.get(pendingKey(scope, trace))
  return raw === undefined ? undefined : JSON.parse(raw.toString()) as FeedbackLabel
}

export function writePendingLabel (writes: BatchWrites, scope: Scope, label: FeedbackLabel): void {
  writes.put(pendingKey(scope, label.trace_id), json(label))
}

export function deletePendingLabel (writes: BatchWrites, scope: Scope, trace: string): void {
  writes.del(pendingKey(scope, trace))
}
