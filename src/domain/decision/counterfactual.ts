import type { Counterfactual, ScoreRequest } from './types.js'

/** Halvings of the amount range: the counterfactual amount is within amount / 2^14 of the largest one approved. */
const STEPS = 14

/**
 * The smallest change among the request's actionable inputs that makes the decision `approve`, pure:
 * `approves(request)` re-decides a changed request with everything else as it was. The actionable input is the
 * amount (what a customer can change in a retry): the largest amount up to the requested one found approved,
 * by halving (scores need not fall monotonically with the amount; the search settles on one boundary).
 * Undefined when no lower amount is approved (a deny list, a case gate, a risk unrelated to the amount).
 */
export function counterfactualOf (request: ScoreRequest, approves: (changed: ScoreRequest) => boolean): Counterfactual | undefined {
  const amount = request.amount
  if (amount === undefined || !(amount > 0)) return undefined
  const at = (a: number) => approves({ ...request, amount: a })
  if (!at(0)) return undefined
  let lo = 0
  let hi = amount
  for (let i = 0; i < STEPS; i++) {
    const mid = (lo + hi) / 2
    if (at(mid)) lo = mid
    else hi = mid
  }
  const to = Math.floor(lo * 100) / 100
  return { action: 'approve', changes: [{ field: 'amount', from: amount, to }] }
}
