import { INPUT_SET } from '../../src/domain/model/inputs.js'
import { namedForest, storedValues, type NamedForest } from '../../src/domain/model/stored-inputs.js'
import type { Forest } from '../../src/domain/model/gbdt.js'
import type { Scope } from '../../src/domain/scope.js'
import { TAG } from '../../src/stores/keys.js'
import { tenantStore } from '../../src/stores/named-store.js'
import { scan } from '../../src/stores/rocks.js'
import type { StateDb } from '../../src/stores/state-db.js'
import type { BatchWrites } from '../../src/stream/batch-writes.js'

/**
 * A labelled decision in the trees' training index: inputs (in the order of input schema version v's trees
 * list; absent: 1), label, its weight (1 / its sampling rate) and the score the service answered it with (s;
 * absent in rows indexed before it was kept). Read, z is in TREE_INPUTS order (by name).
 */
export interface TrainingRow { z: number[], y: 0 | 1, w: number, s?: number, v?: number }

/** The training index: (scope, recorded time, trace) -> TrainingRow, frauds all, legitimate rows sampled. */
export const TRAINING_INDEX = tenantStore('feedback.training-index', TAG.learner, 't')
/**
 * The forests of each scope's champion, the one before it and its challenger, by version, with the names of the
 * inputs their splits index (NamedForest; a bare Forest in those stored before, made with schema version 1).
 */
export const FORESTS = tenantStore('feedback.forests', TAG.learner, 'o')

const trainingKey = (s: Scope, t: number, trace: string) => TRAINING_INDEX.key(s.tenant, s.mode, String(t).padStart(15, '0'), trace)
const forestKey = (s: Scope, version: string) => FORESTS.key(s.tenant, s.mode, version)
const json = (v: unknown) => Buffer.from(JSON.stringify(v))

/** Stores a training row whose z is in TREE_INPUTS order, under its schema version. */
export function writeTrainingRow (writes: BatchWrites, scope: Scope, t: number, trace: string, row: TrainingRow): void {
  writes.put(trainingKey(scope, t, trace), json({ ...row, v: INPUT_SET.version }))
}

export function deleteTrainingRow (writes: BatchWrites, scope: Scope, t: number, trace: string): void {
  writes.del(trainingKey(scope, t, trace))
}

/** The scope's training rows recorded from `fromMs` (at least 0) until before `toMs`, as the store holds them, z in TREE_INPUTS order. */
export async function trainingRows (state: StateDb, scope: Scope, fromMs: number, toMs: number): Promise<TrainingRow[]> {
  const rows: TrainingRow[] = []
  for await (const [, raw] of scan(state.db, trainingKey(scope, Math.max(0, fromMs), ''), trainingKey(scope, toMs, ''))) {
    const row = JSON.parse(raw.toString()) as TrainingRow
    rows.push(row.v === INPUT_SET.version ? row : { ...row, z: storedValues(row.z, row.v, 'trees'), v: INPUT_SET.version })
  }
  return rows
}

/** Deletes the scope's training rows recorded before `beforeMs`. */
export async function dropTrainingRows (state: StateDb, writes: BatchWrites, scope: Scope, beforeMs: number): Promise<void> {
  for await (const [old] of scan(state.db, trainingKey(scope, 0, ''), trainingKey(scope, beforeMs, ''))) writes.del(old)
}

export async function readForest (state: StateDb, scope: Scope, version: string): Promise<NamedForest | undefined> {
  const raw = await state.get(forestKey(scope, version))
  return raw === undefined ? undefined : namedForest(JSON.parse(raw.toString()) as NamedForest | Forest)
}

export function writeForest (writes: BatchWrites, scope: Scope, version: string, forest: NamedForest): void {
  writes.put(forestKey(scope, version), json(forest))
}

export function deleteForest (writes: BatchWrites, scope: Scope, version: string): void {
  writes.del(forestKey(scope, version))
}
