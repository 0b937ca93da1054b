/** What overrides, case gates and deny lists can name: a request's user, email, device, IP or card. */
export type Subject = 'user_id' | 'email' | 'device_id' | 'ip' | 'card'

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
  /** Event time in unix seconds when the client gave one (replays); velocity windows are by event time. */
  event_time?: number
}

/** Exactly the response of POST /v1/score (docs/spec.md, Decision). */
export interface Decision {
  score: number
  risk_level: RiskLevel
  action: Action
  signals: string[]
  rules: string[]
  trace_id: string
  latency_ms: number
  /** Present when shadow-mode rules were evaluated: what they would have done. Never changes `action`. */
  shadow?: ShadowOutcome
  /** Present when a Stage 3 gate changed the action: `admin_override:<id>` or `case_review:<case id>`. */
  override_gate?: string
  /** On `flag` and `reject`: the smallest actionable change that would have made it `approve`; null when none would. */
  counterfactual?: Counterfactual | null
}

/** decision.counterfactual: the inputs to change (from what the request had to what would be approved) and the action then. */
export interface Counterfactual {
  action: 'approve'
  changes: Array<{ field: 'amount', from: number, to: number }>
}

/** decision.shadow: the action the shadow rules would have produced and the ids of those that matched. */
export interface ShadowOutcome {
  action: Action
  rules: string[]
}

/** Numeric feature values a decision saw; recorded with it so re-evaluation reproduces it. */
export type Features = Record<string, number>


/** A tenant rule: a CEL expression (src/domain/rules/language.ts) and what a match does. */
export interface Rule {
  id: string
  name: string
  expression: string
  action: Action
  /** `enforce` rules decide; `shadow` rules are evaluated and reported under decision.shadow only. */
  mode: 'enforce' | 'shadow'
  /** Lower runs first among rules of the same action. */
  priority: number
  description: string
  status: 'active' | 'disabled'
}

export type ListItemType = 'user_id' | 'email' | 'device_id' | 'ip' | 'country' | 'card' | 'string'

/** A tenant value list (allow-list, deny-list...), referenced from rules by its alias: in_list("<alias>", value). */
export interface ValueList {
  alias: string
  item_type: ListItemType
  /** Values; for item_type `ip` also CIDR ranges (203.0.113.0/24, 2001:db8::/32). */
  items: string[]
}

/** A rule pack rolled out in shadow mode to a share of traffic chosen by hash(tenant, pack, subject). */
export interface Rollout {
  pack: string
  rule_ids: string[]
  /** 0..100; raising it only adds subjects. */
  percentage: number
  /** This run of the rollout: each POST /v1/rules/rollout starts a new one (absent on rollouts made before runs had ids). */
  id?: string
  /** `stopped` once a stop condition was crossed, or on request, or once promoted: its pack then runs nowhere (absent: running). */
  status?: 'running' | 'stopped'
  stop_conditions?: StopConditions
  /** Why and when it stopped: the figures that crossed a condition, or who stopped or promoted it. */
  stopped?: RolloutStop
}

/**
 * When a rollout stops itself (domain/rules/rollout-guard.ts): its hit rate (decisions where one of its rules
 * matched, of those it ran for) above `max_hit_rate` once it ran for `min_decisions`; or its precision (frauds
 * among its hits whose labels matured) below `min_precision` once `min_matured_hits` hits matured.
 */
export interface StopConditions {
  max_hit_rate?: number
  min_decisions?: number
  min_precision?: number
  min_matured_hits?: number
}

/** What the rollout guard counted for one run of a rollout. */
export interface RolloutFigures { decisions: number, hits: number, matured_hits: number, matured_frauds: number }

/** A run the rollout guard stopped: the condition crossed, with the figures that crossed it. */
export interface RolloutGuardStop extends RolloutFigures {
  reason: 'hit_rate' | 'precision'
  /** Unix seconds. */
  at: number
  hit_rate: number
  precision: number | null
}

/** A run ended on request: stopped (POST /v1/rules/rollout/{pack}/stop) or promoted to enforce (.../promote). */
export interface RolloutEnded {
  reason: 'stop_requested' | 'promoted'
  /** Unix seconds. */
  at: number
  /** The API key or dashboard user that asked. */
  actor: string
}

/** Why and when a run stopped. */
export type RolloutStop = RolloutGuardStop | RolloutEnded

/** An immutable snapshot of a tenant's rules, lists and rollouts; decisions record its version. */
export interface Ruleset {
  version: string
  rules: Rule[]
  lists: Record<string, ValueList>
  rollouts?: Record<string, Rollout>
  /** Score -> risk level -> action (POST /v1/risk_settings); the defaults when absent. */
  risk?: RiskSettings
}

export interface RiskThresholds {
  /** score >= medium is `medium` (default 0.65) */
  medium: number
  /** score >= high is `high` (default 0.75) */
  high: number
}

export interface RiskSettings {
  thresholds: RiskThresholds
  /** Default action per risk level (Stage 2). */
  actions: Record<RiskLevel, Action>
}

export interface TenantPolicy extends RiskSettings {
  ruleset: Ruleset
}

/** An admin override (Stage 3): forces the final action for one subject until it expires. */
export interface Override {
  id: string
  subject: Subject
  value: string
  action: Action
  reason: string
  created_ms: number
  expires_at_ms: number | null
}

/** A case outcome gating later decisions of the case's subjects (Stage 3). */
export interface CaseGate {
  case_id: string
  outcome: 'fraud' | 'safe' | 'chargeback'
  /** When the outcome was set: only decisions recorded at or after it are gated (arrival time, not event time). */
  at_ms: number
  /** `safe` demotions end then; fraud and chargeback gates do not expire. */
  until_ms: number | null
}
