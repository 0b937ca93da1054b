import { compileRule, RuleCostError, RuleSyntaxError, type CompiledRule } from '../../../domain/rules/language.js'
import type { LintContext } from '../../../domain/rules/lint.js'
import { expressionError } from '../../../services/rule-jobs.js'

/**
 * A rule expression compiled, or a 400 saying where it is wrong: parameter_invalid, or expression_too_costly
 * when it is over the cost limit (docs/rules.md, "Cost"). Compiling one expression is bounded (4,000
 * characters, nesting, literal RE2 patterns): the rules save path does it here, as the ruleset compile will.
 */
export function compileChecked (expression: string, lint?: LintContext): CompiledRule {
  try {
    return compileRule(expression, undefined, lint)
  } catch (err) {
    if (err instanceof RuleSyntaxError) {
      throw expressionError({ message: err.message, line: err.position.line, column: err.position.column, kind: err instanceof RuleCostError ? 'cost' : 'syntax' })
    }
    throw err
  }
}
