/**
 * Response schemas by name: each is added to the server once (`$id` = its name; schemas/index.ts) and routes
 * refer to it with `ref(Case)`; the OpenAPI document shows it as components.schemas.Case, and a generated
 * client as a type of that name. fastify serializes a response with its schema, so a resource's schema lists
 * every field it has: a field left out is not sent (the tests' contract harness, test/support/contract.ts,
 * sees the response before that and fails on a field the schema does not declare).
 */
export type Schema = Record<string, unknown>
export interface Named extends Schema { $id: string }

/** The schema of a named resource; `additionalProperties: false` unless it says otherwise. */
export const define = (name: string, schema: Schema): Named => ({ $id: name, additionalProperties: false, ...schema })

/** A reference to a named schema, as routes and other schemas write it. */
export const ref = (schema: Named): Schema => ({ $ref: `${schema.$id}#` })

/** A value of `schema`, or null. */
export const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] })

/** The page of a list: {object: "list", url, has_more, data: [item]}, named `<Item>List`. */
export function listOf (item: Named): Named {
  return define(`${item.$id}List`, {
    description: `A page of ${item.$id} objects, in the list's order.`,
    type: 'object',
    required: ['object', 'url', 'has_more', 'data'],
    properties: {
      object: { type: 'string', const: 'list' },
      url: { type: 'string', description: 'The path this list was read from.' },
      has_more: { type: 'boolean', description: 'Whether another page follows (pass the last id as starting_after).' },
      data: { type: 'array', items: ref(item) }
    }
  })
}

/** The component name of a shared schema in the OpenAPI document: its name, not fastify's `def-N`. */
export const componentName = (json: { $id?: string }, _base: unknown, _fragment: unknown, i: number): string => json.$id ?? `def-${i}`
