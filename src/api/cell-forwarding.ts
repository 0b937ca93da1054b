import type { FastifyReply, FastifyRequest } from 'fastify'
import { Pool } from 'undici'
import { FORWARDED_HEADER, instanceOf } from '../services/cells.js'
import { ApiError } from '../services/errors.js'
/** Hop-by-hop headers, and the host: not passed on either way. */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer', 'host'])
/** How long an instance that failed is passed over before it is tried again. */
const DOWN_MS = 5_000

/**
 * Any instance answers any tenant (docs/architecture.md#cells): a request for a tenant of another cell, once
 * authenticated here, is passed to an instance of that cell over a kept-alive connection pool, and its answer
 * is returned unchanged (status, headers, body). Each tenant goes to the same instance of its cell while that
 * instance answers, so a client reads its own writes through any instance; one that fails is passed over for
 * DOWN_MS. A request that arrives forwarded is never forwarded again.
 */
export class CellForwarder {
  private readonly pools = new Map<string, Pool>()
  private readonly downUntil = new Map<string, number>()

  constructor (readonly cell: number, private readonly urls: ReadonlyMap<number, readonly string[]>, private readonly tenants: { cellOf(tenant: string): number }) {}

  /** The tenant's cell when it is not this one. */
  elsewhere (tenant: string): number | undefined {
    const cell = this.tenants.cellOf(tenant)
    return cell === this.cell ? undefined : cell
  }

  async forward (request: FastifyRequest, reply: FastifyReply, tenant: string, cell: number): Promise<FastifyReply> {
    if (request.headers[FORWARDED_HEADER] !== undefined) {
      throw new ApiError('cell_unavailable', `This instance (cell ${this.cell}) was sent a request of a tenant of cell ${cell}: the cells disagree on where the tenant lives. Retry in a moment.`, undefined, undefined, 1)
    }
    const origin = this.upstream(tenant, cell)
    const headers: Record<string, string | string[]> = { [FORWARDED_HEADER]: String(this.cell) }
    for (const [name, value] of Object.entries(request.headers)) if (value !== undefined && !HOP.has(name)) headers[name] = value
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD'
    try {
      const answer = await this.pool(origin).request({ method: request.method as 'GET', path: request.url, headers, body: hasBody ? request.raw : undefined })
      void reply.code(answer.statusCode)
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP.has(name)) void reply.header(name, value)
      return await reply.send(answer.body)
    } catch (err) {
      this.downUntil.set(origin, Date.now() + DOWN_MS)
      request.log.warn({ err, cell, origin }, 'forwarding to another cell failed')
      throw new ApiError('cell_unavailable', `The cell of this account (cell ${cell}) did not answer. Retry in a moment.`, undefined, undefined, 1)
    }
  }

  /** The tenant's instance of its cell: by a hash of the tenant, past those that failed lately. */
  private upstream (tenant: string, cell: number): string {
    const urls = this.urls.get(cell)
    if (urls === undefined || urls.length === 0) throw new ApiError('cell_unavailable', `No instance of cell ${cell} is configured (CELL_URLS).`)
    const start = instanceOf(tenant, urls.length)
    const now = Date.now()
    for (let i = 0; i < urls.length; i++) {
      const url = urls[(start + i) % urls.length]!
      if ((this.downUntil.get(url) ?? 0) <= now) return url
    }
    return urls[start]!
  }

  private pool (origin: string): Pool {
    let pool = this.pools.get(origin)
    if (pool === undefined) this.pools.set(origin, pool = new Pool(origin, { connections: 64, keepAliveTimeout: 30_000 }))
    return pool
  }

  async close (): Promise<void> {
    await Promise.all([...this.pools.values()].map(p => p.close()))
  }
}
