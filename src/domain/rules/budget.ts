/**
 * The time the rules of one request may take (docs/rules.md, "Runtime budget"): every rule evaluated for the
 * request, enforce and shadow, and the re-decisions of its counterfactual, draw on one budget. Once it is spent,
 * a comprehension running stops within a few iterations, the rules not yet evaluated are skipped, and each is
 * recorded in the decision's `rule_errors`. The clock is injected (performance.now on the request path), so the
 * domain stays pure and tests can spend a budget without waiting.
 */
/** The time the rules of one request may take by default (RULE_BUDGET_MS). */
export const DEFAULT_RULE_BUDGET_MS = 5

export class RuleBudget {
  private readonly deadline: number
  private over = false

  constructor (readonly ms: number, private readonly now: () => number) {
    this.deadline = now() + ms
  }

  /** True once the budget is spent (reads the clock until then). */
  spent (): boolean {
    if (!this.over && this.now() > this.deadline) this.over = true
    return this.over
  }

  /** True once spent() has seen the deadline pass (no clock read). */
  get exhausted (): boolean {
    return this.over
  }
}

/** The `rule_errors` entry of a rule stopped or skipped because the request's budget was spent. */
export const budgetError = (budget: RuleBudget, started: boolean) =>
  `${started ? 'stopped' : 'not evaluated'}: the rules of this request spent their ${budget.ms} ms budget`
