import type { FraudClient } from './client.js'
import type { paths } from './schema.js'

/** The list operations: a GET whose answer is a page {object: "list", has_more, data}. */
type ListPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: { content: { 'application/json': { has_more: boolean, data: unknown[] } } } } } } ? P : never
}[keyof paths]
type Item<P extends ListPath> = paths[P]['get']['responses'][200]['content']['application/json']['data'][number]
type Query<P extends ListPath> = paths[P]['get']['parameters'] extends { query?: infer Q } ? Q : never
type PathParams<P extends ListPath> = paths[P]['get']['parameters'] extends { path?: infer Q } ? Q : never

/**
 * Every item of a list, page after page (`starting_after` the last id of each page, or a value list's alias).
 *
 *   for await (const c of listAll(fds, '/v1/cases', { query: { status: 'open' } })) ...
 */
export async function * listAll<P extends ListPath> (client: FraudClient, path: P, params: { query?: Query<P>, path?: PathParams<P> } = {}): AsyncGenerator<Item<P>> {
  let after: string | undefined
  for (;;) {
    const query = { ...(params.query as object | undefined), ...(after === undefined ? {} : { starting_after: after }) }
    const { data } = await (client.GET as (path: string, init: object) => Promise<{ data?: { has_more: boolean, data: Array<Item<P>> } }>)(path, { params: { query, path: params.path } })
    const page = data!
    for (const item of page.data) yield item
    const last = page.data[page.data.length - 1] as { id?: string, alias?: string } | undefined
    if (!page.has_more || last === undefined) return
    after = last.id ?? last.alias
  }
}
