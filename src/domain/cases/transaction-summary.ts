import type { Action, Counterfactual, Decision, RiskLevel, ScoreRequest, ShadowOutcome } from '../decision/types.js'
import { customValue, dimensionValue } from '../features/velocity-spec.js'
import { geoFacts } from '../features/geo.js'
import { subjectsOf } from '../decision/subjects.js'

/** Free text kept on a case is cut to this many characters (a request's strings may be 8,192 long). */
const TEXT_MAX = 200

/** Where the event happened, as the request said. */
export interface CaseLocation { country: string | null, city: string | null, lat: number | null, lon: number | null }

/**
 * What an analyst triages, kept on the case when it opens so the queue and the case page need no second read:
 * the event, its amount, merchant, channel and location, and the decision with its signals, shadow outcome and
 * counterfactual.
 */
export interface CaseTransaction {
  event: string
  amount: number | null
  currency: string | null
  merchant: string | null
  channel: string | null
  location: CaseLocation | null
  action: Action
  risk_level: RiskLevel
  signals: string[]
  shadow: ShadowOutcome | null
  counterfactual: Counterfactual | null
}

const text = (v: string | undefined) => v === undefined ? null : v.slice(0, TEXT_MAX)
const metadataText = (request: ScoreRequest, key: string) => {
  const v = request.metadata?.[key]
  return typeof v === 'string' && v !== '' ? v : undefined
}

function locationOf (request: ScoreRequest): CaseLocation | null {
  const facts = geoFacts(request.geo)
  const city = request.geo?.city
  const location = { country: facts.country ?? null, city: typeof city === 'string' && city !== '' ? city.slice(0, TEXT_MAX) : null, lat: facts.point?.lat ?? null, lon: facts.point?.lon ?? null }
  return Object.values(location).every(v => v === null) ? null : location
}

/** The case's view of a scored request and its decision. Pure. */
export function caseTransactionOf (request: ScoreRequest, decision: Decision): CaseTransaction {
  return {
    event: request.event,
    amount: request.amount ?? null,
    currency: request.currency?.toUpperCase() ?? null,
    merchant: text(dimensionValue(request, 'merchant') ?? metadataText(request, 'merchant_id') ?? metadataText(request, 'merchant')),
    channel: text(customValue(request, 'channel') ?? metadataText(request, 'channel')),
    location: locationOf(request),
    action: decision.action,
    risk_level: decision.risk_level,
    signals: decision.signals,
    shadow: decision.shadow ?? null,
    counterfactual: decision.counterfactual ?? null
  }
}

/** What a case opened on a scored decision takes from it: its rules, score, subjects and transaction. */
export function caseFactsOf (request: ScoreRequest, decision: Decision) {
  return { rules: decision.rules, score: decision.score, subjects: subjectsOf(request), transaction: caseTransactionOf(request, decision) }
}
