import type { Action, Decision, Features, ScoreRequest } from './decision/types.js'

/** A recorded decision: what GET /v1/transactions/{id} returns and what the `decisions` topic carries. */
export interface TransactionRecord {
  trace_id: string
  tenant_id: string
  livemode: boolean
  created_ms: number
  request: ScoreRequest
  decision: Decision
  ruleset_version: string
  model_version: string
  features: Features
  base_action: Action
  override_gate: string | null
  rule_errors: Array<{ id: string, error: string }>
  rollout_buckets: Record<string, number>
  origin_id: string
  origin_seq: number
}
