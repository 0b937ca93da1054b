import type { Mode } from '../scope.js'
import type { ScoringModel } from '../model/model.js'
import type { ModelEvaluation } from '../model/challenger.js'
import type { LogRecord } from './log-record.js'

/** A model version on the `models` topic (JSON, key "<tenant>:<mode>"), published by the model-trainer topology. */
export interface ModelRecord {
  tenant_id: string
  mode: Mode
  model: ScoringModel
  /** Labelled decisions the model has learned from so far. */
  trained: number
  /** Event time of the latest decision it learned from (ms). */
  trained_through_ms: number
  created_ms: number
  /** Absent: the version to score with. `challenger`: scoring in shadow; `rejected`: compared and kept out. */
  role?: 'challenger' | 'rejected'
  /** How it did against the champion when it was compared (promoted or rejected). */
  evaluation?: ModelEvaluation
  /** The champion before the active one, made active again because the active one's scores or quality drifted. */
  rollback?: true
  /** On a rollback: the version it replaced and why. */
  rolled_back?: { from: string, reason: 'score_drift' | 'quality' }
}

export const modelRecord = (r: ModelRecord): LogRecord => ({ key: `${r.tenant_id}:${r.mode}`, value: Buffer.from(JSON.stringify(r)), headers: { tenant_id: r.tenant_id } })
