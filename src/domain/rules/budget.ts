/**
 * The work the rules of one request may do (docs/rules.md, "Runtime budget"): every rule evaluated for the
 * request, enforce and shadow, and the re-decisions of its counterfactual, draw on one budget of cost units
 * (cost.ts's units). Each rule evaluated is charged one unit, each comprehension iteration what the static
 * estimate gives one iteration of it, each matches() its characters times its RE2 instructions. Once the budget is
 * spent, a comprehension running stops at its next iteration, the rules not yet evaluated are skipped, and each is
 * recorded in the decision's `rule_errors`. Work is counted, not timed, so a decision stays repeatable: the same
 * request and ruleset spend the same units on any machine, however loaded.
 */
/** Units the rules of one request may spend by default (RULE_BUDGET_UNITS): about 2-3 ms of the dearest work. */
export const DEFAULT_RULE_BUDGET_UNITS = 100_000

export class RuleBudget {
  private used = 0
  private over = false

  constructor (readonly units: number) {}

  /** Charges `units` of work; true once the budget is spent. */
  charge (units: number): boolean {
    this.used += units
    if (this.used > this.units) this.over = true
    return this.over
  }

  /** True once a charge went past the budget. */
  get exhausted (): boolean {
    return this.over
  }
}

/** The `rule_errors` entry of a rule stopped or skipped because the request's budget was spent. */
export const budgetError = (budget: RuleBudget, started: boolean) =>
  `${started ? 'stopped' : 'not evaluated'}: the rules of this request spent their budget of ${budget.units.toLocaleString('en-US')} cost units`
