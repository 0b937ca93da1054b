/**
 * The time the rules of one request may take (docs/rules.md, "Runtime budget"): every rule evaluated for the
 * request, enforce and shadow, and the re-decisions of its counterfactual, draw on one budget. Once it is spent,
 * a comprehension running stops within a few iterations, the rules not yet evaluated are skipped, and each is
 * recorded in the decision's `rule_errors`. Spent means both clocks passed it: the wall clock, and (when given)
 * the process's CPU time, so that time the process was not running (descheduled on a busy machine) does not
 * count as the rules'. The clocks are injected (performance.now and process.cpuUsage on the request path), so
 * the domain stays pure and tests can spend a budget without waiting.
 */
/** The time the rules of one request may take by default (RULE_BUDGET_MS). */
export const DEFAULT_RULE_BUDGET_MS = 5

export class RuleBudget {
  private readonly deadline: number
  private readonly cpuDeadline: number
  private over = false

  /** `now`: the wall clock, `cpu`: CPU time used so far, both in ms. */
  constructor (readonly ms: number, private readonly now: () => number, private readonly cpu?: () => number) {
    this.deadline = now() + ms
    this.cpuDeadline = cpu === undefined ? 0 : cpu() + ms
  }

  /** True once the budget is spent (reads the clocks until then; the CPU clock only past the wall deadline). */
  spent (): boolean {
    if (!this.over && this.now() > this.deadline && (this.cpu === undefined || this.cpu() > this.cpuDeadline)) this.over = true
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
