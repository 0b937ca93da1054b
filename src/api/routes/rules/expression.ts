import { compileRule, RuleSyntaxError, type CompiledRule } from '../../../domain/rules/language.js'
import { ApiError } from '../../../services/errors.js'

/** A rule expression compiled, or 400 parameter_invalid saying where it is wrong. */
export function compileChecked (expression: string): CompiledRule {
  try {
    return compileRule(expression)
  } catch (err) {
    if (err instanceof RuleSyntaxError) {
      throw new ApiError('parameter_invalid', `Invalid expression at line ${err.position.line}, column ${err.position.column}: ${err.message}`, 'expression')
    }
    throw err
  }
}
