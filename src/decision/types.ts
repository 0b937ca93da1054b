export type Action = 'approve' | 'flag' | 'reject'
export type RiskLevel = 'low' | 'medium' | 'high'

/** The validated body of POST /v1/score. Keys not named here are kept in `custom`. */
export interface ScoreRequest {
  event: string
  amount?: number
  currency?: string
  user_id?: string
  ip?: string
  device_id?: string
  email?: string
  geo?: Record<string, unknown>
  metadata?: Record<string, unknown>
  custom?: Record<string, unknown>
}

/** Exactly the response of POST /v1/score (SPEC.md, Decision). */
export interface Decision {
  score: number
  risk_level: RiskLevel
  action: Action
  signals: string[]
  rules: string[]
  trace_id: string
  latency_ms: number
}

/** Numeric feature values a decision saw; recorded with it so re-evaluation reproduces it. */
export type Features = Record<string, number>

export type Subject = 'user_id' | 'email' | 'device_id' | 'ip'
export const SUBJECTS: readonly Subject[] = ['user_id', 'email', 'device_id', 'ip']

/** A Stage 1 rule in its first form: deny lists and amount thresholds. */
export type Rule =
  | { id: string, kind: 'deny_list', action: Action }
  | { id: string, kind: 'amount_threshold', above: number, action: Action }

export interface Ruleset {
  version: string
  rules: Rule[]
  deny: Partial<Record<Subject, string[]>>
}

export interface RiskThresholds {
  /** score >= medium is `medium` (default 0.65) */
  medium: number
  /** score >= high is `high` (default 0.75) */
  high: number
}

export interface TenantPolicy {
  ruleset: Ruleset
  thresholds: RiskThresholds
  /** Default action per risk level (Stage 2). */
  actions: Record<RiskLevel, Action>
}

/** An admin override (Stage 3): forces the final action for one subject until it expires. */
export interface Override {
  id: string
  subject: Subject
  value: string
  action: Action
  reason: string
  expires_at_ms: number | null
}

/** Everything a decision depends on besides the request: read from local state before deciding. */
export interface DecisionContext {
  features: Features
  policy: TenantPolicy
  overrides: Override[]
  now_ms: number
}

export interface Evaluation {
  decision: Omit<Decision, 'trace_id' | 'latency_ms'>
  base_action: Action
  override_gate: string | null
  ruleset_version: string
  model_version: string
}
