import type { Server } from 'node:http'
import type { Socket } from 'node:net'

/** Bounds on the connections of one listener (docs/limits.md, "Connections"). */
export interface ConnectionBounds {
  /** Open connections at most; at the bound, a new one makes room by closing the connection idle longest. */
  maxConnections: number
  /** A connection that has sent no request, or sent nothing for this long during one, is closed. */
  idleTimeoutMs: number
  /** Between two requests of a kept-alive connection. */
  keepAliveTimeoutMs: number
  /** The request line and headers must arrive within this long (408 request_timeout otherwise). */
  headersTimeoutMs: number
  /** The whole request, headers and body, must arrive within this long (408 request_timeout otherwise). */
  requestTimeoutMs: number
}

/** How often Node checks the header and request timeouts of the requests arriving (Node's default is 30 s). */
export const TIMEOUT_CHECK_INTERVAL_MS = 1000

/** The Node and fastify server options that carry the timeouts of `bounds`. */
export function serverTimeouts (bounds: ConnectionBounds) {
  return {
    connectionTimeout: bounds.idleTimeoutMs,
    keepAliveTimeout: bounds.keepAliveTimeoutMs,
    requestTimeout: bounds.requestTimeoutMs,
    http: { headersTimeout: bounds.headersTimeoutMs, requestTimeout: bounds.requestTimeoutMs, connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS }
  }
}

/**
 * Holds a listener to `maxConnections` open connections without locking new clients out: when the bound is
 * reached, the connection idle longest (no request in flight: never sent one, sent headers only in part, or
 * kept alive after its last answer) is closed to make room. Only when every connection has a request in flight
 * is the new one refused. Idle connections therefore cannot starve the clients that score.
 */
export function guardConnections (server: Server, maxConnections: number, tls: boolean): void {
  // Insertion order is the order of last activity: a connection moves to the end when a request arrives.
  const open = new Map<Socket, { inFlight: number }>()
  // Over TLS, requests arrive on the TLS socket, which exists once the handshake is done.
  server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    if (open.size >= maxConnections && !closeIdlest(open)) {
      socket.destroy()
      return
    }
    open.set(socket, { inFlight: 0 })
    socket.once('close', () => open.delete(socket))
  })
  server.on('request', (request, response) => {
    const socket = request.socket
    const state = open.get(socket)
    if (state === undefined) return
    state.inFlight++
    open.delete(socket)
    open.set(socket, state)
    response.once('close', () => { state.inFlight-- })
  })
}

function closeIdlest (open: Map<Socket, { inFlight: number }>): boolean {
  for (const [socket, state] of open) {
    if (state.inFlight > 0) continue
    open.delete(socket)
    socket.destroy()
    return true
  }
  return false
}
