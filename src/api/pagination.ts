/**
 * Stripe-style lists: {object: "list", data, has_more, url}, `limit` 1..100 (default 10) and `starting_after`
 * an id. Query strings arrive as text and the validator does not coerce types, hence the digit pattern.
 */
export const listQuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'string', pattern: '^(100|[1-9][0-9]?)$' },
    starting_after: { type: 'string', minLength: 1 }
  }
} as const

export interface ListQuery { limit?: string, starting_after?: string }

export function paginate<T, R> (sorted: readonly T[], idOf: (item: T) => string, query: ListQuery, view: (item: T) => R, url: string) {
  const limit = query.limit === undefined ? 10 : Number(query.limit)
  const start = query.starting_after === undefined ? 0 : sorted.findIndex(item => idOf(item) > query.starting_after!)
  const from = start === -1 ? sorted.length : start
  const page = sorted.slice(from, from + limit)
  return { object: 'list', url, has_more: from + limit < sorted.length, data: page.map(view) }
}

/** A page from items already in id order after `starting_after` (a key-range scan): the first `limit` kept ones. */
export async function pageOf<T> (items: AsyncIterable<T>, keep: (item: T) => boolean, query: ListQuery): Promise<{ data: T[], has_more: boolean }> {
  const limit = query.limit === undefined ? 10 : Number(query.limit)
  const data: T[] = []
  for await (const item of items) {
    if (!keep(item)) continue
    if (data.length === limit) return { data, has_more: true }
    data.push(item)
  }
  return { data, has_more: false }
}
