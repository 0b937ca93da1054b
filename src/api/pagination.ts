/**
 * Stripe-style lists: {object: "list", data, has_more, url}, `limit` 1..100 (default 10) and `starting_after`
 * an id. Query strings are coerced to their schema's types (validators.ts).
 */
export const listQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, description: 'How many objects to return, 1 to 100 (default 10).' },
    starting_after: { type: 'string', minLength: 1, description: 'An object id: the page starts after it (the last id of the page before).' }
  }
} as const

export interface ListQuery { limit?: number, starting_after?: string }

export function paginate<T, R> (sorted: readonly T[], idOf: (item: T) => string, query: ListQuery, view: (item: T) => R, url: string) {
  const limit = query.limit ?? 10
  const start = query.starting_after === undefined ? 0 : sorted.findIndex(item => idOf(item) > query.starting_after!)
  const from = start === -1 ? sorted.length : start
  const page = sorted.slice(from, from + limit)
  return { object: 'list', url, has_more: from + limit < sorted.length, data: page.map(view) }
}

/** A page from items already in id order after `starting_after` (a key-range scan): the first `limit` kept ones. */
export async function pageOf<T> (items: AsyncIterable<T>, keep: (item: T) => boolean, query: ListQuery): Promise<{ data: T[], has_more: boolean }> {
  const limit = query.limit ?? 10
  const data: T[] = []
  for await (const item of items) {
    if (!keep(item)) continue
    if (data.length === limit) return { data, has_more: true }
    data.push(item)
  }
  return { data, has_more: false }
}
