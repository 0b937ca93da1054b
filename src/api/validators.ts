import { AjvCompiler, type ValidatorFactory } from '@fastify/ajv-compiler'

type Validate = ((data: unknown) => boolean) & { errors?: unknown }

/** The text of a JSON number (an integer's without fraction or exponent), finite once read. */
const NUMERALS: Record<string, RegExp> = {
  integer: /^-?(0|[1-9][0-9]{0,15})$/,
  number: /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/
}

/**
 * The query parameters of `schema` that are numbers, integers or booleans, with the text that is one: a JSON
 * number's text, finite, and for an integer plain digits (not Ajv's coercion, which takes `0x10` and ` 5`, and
 * lets `1e400` pass a maximum as Infinity).
 */
function typedParameters (schema: unknown): Array<[string, (text: string) => unknown]> {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> } | undefined)?.properties ?? {}
  const typed: Array<[string, (text: string) => unknown]> = []
  for (const [name, p] of Object.entries(properties)) {
    if (p.type === 'boolean') typed.push([name, t => t === 'true' ? true : t === 'false' ? false : t])
    const numeral = typeof p.type === 'string' ? NUMERALS[p.type] : undefined
    if (numeral !== undefined) typed.push([name, t => numeral.test(t) && Number.isFinite(Number(t)) ? Number(t) : t])
  }
  return typed
}

/**
 * The route validators, fastify's own (Ajv with the options fastify is given, services/validation.ts: no
 * coercion), with one step before a query string's: a parameter its schema declares a number, an integer or a
 * boolean is read as one when its text is one, since a query string is text on the wire. So `limit` is an
 * integer in the schema, the document and a generated client, and `limit=abc`, `limit=2.5` or `limit=1e2` is
 * refused as before (400 parameter_invalid); `min_score=1e-3` is a number.
 */
export function routeValidators (): ValidatorFactory {
  const factory = AjvCompiler()
  // Typed as fastify's factory: fastify calls a validator and reads its `errors`, nothing else of Ajv's function.
  return ((externalSchemas: Parameters<ValidatorFactory>[0], options: Parameters<ValidatorFactory>[1]) => {
    const compile = factory(externalSchemas, options)
    return (route: Parameters<typeof compile>[0]) => {
      const validate = compile(route) as Validate
      const typed = route.httpPart === 'querystring' ? typedParameters(route.schema) : []
      if (typed.length === 0) return validate
      const withTypes: Validate = data => {
        const query = data as Record<string, unknown> | null
        if (query !== null && typeof query === 'object') {
          for (const [name, read] of typed) {
            const text = query[name]
            if (typeof text === 'string') query[name] = read(text)
          }
        }
        const valid = validate(data)
        withTypes.errors = validate.errors
        return valid
      }
      return withTypes
    }
  }) as unknown as ValidatorFactory
}
