import type { RiskLevel, RiskThresholds } from './types.js'

export const DEFAULT_THRESHOLDS: RiskThresholds = { medium: 0.65, high: 0.75 }

export function riskLevel (score: number, t: RiskThresholds): RiskLevel {
  if (score >= t.high) return 'high'
  if (score >= t.medium) return 'medium'
  return 'low'
}
