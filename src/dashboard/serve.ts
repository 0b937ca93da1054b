import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import type { FastifyInstance, FastifyReply } from 'fastify'
import fastifyStatic from '@fastify/static'

/** The checkout's root: the nearest folder above this module with a package.json (from src/ and from dist/src/). */
function packageRoot (from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir
    if (path.dirname(dir) === dir) return from
  }
}

/** Where `npm install` (the `prepare` script: vite build) puts the dashboard. */
export const DASHBOARD_DIST = path.join(packageRoot(import.meta.dirname), 'dashboard', 'dist')

/**
 * Pages that only load the dashboard's own files: no inline script, no other origin, never framed, and no
 * Referer (the setup link carries its token in the fragment, which browsers never send anyway).
 */
const CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
const secure = (reply: FastifyReply) => reply
  .header('content-security-policy', CSP)
  .header('x-content-type-options', 'nosniff')
  .header('referrer-policy', 'no-referrer')
  .header('x-frame-options', 'DENY')

/**
 * Serves the built dashboard at /dashboard/: its hashed assets (cached for a year), and index.html for every
 * other page path, so a deep link (/dashboard/cases/case_...) loads the app, which routes it. Its API calls
 * go to /dashboard/api (the session) and /v1 (everything else, with the session instead of a key).
 */
export async function serveDashboard (app: FastifyInstance, dist = DASHBOARD_DIST): Promise<void> {
  const root = dist
  const indexFile = path.join(root, 'index.html')
  const index = existsSync(indexFile) ? readFileSync(indexFile) : undefined
  if (existsSync(path.join(root, 'assets'))) {
    await app.register(fastifyStatic, {
      root: path.join(root, 'assets'),
      prefix: '/dashboard/assets/',
      wildcard: false,
      index: false,
      immutable: true,
      maxAge: '365d',
      setHeaders: res => { res.setHeader('x-content-type-options', 'nosniff') }
    })
  }
  const page = async (_request: unknown, reply: FastifyReply) => {
    if (index === undefined) return secure(reply).code(503).type('text/plain').send('The dashboard is not built: run `npm run build:dashboard`.')
    return secure(reply).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(index)
  }
  app.get('/dashboard', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/dashboard/', 301))
  app.get('/dashboard/', { schema: { hide: true } }, page)
  app.get('/dashboard/setup', { schema: { hide: true } }, page)
  app.get('/dashboard/cases/:id', { schema: { hide: true } }, page)
  app.get('/dashboard/decisions', { schema: { hide: true } }, page)
  app.get('/dashboard/decisions/:id', { schema: { hide: true } }, page)
  app.get('/dashboard/rules', { schema: { hide: true } }, page)
  app.get('/dashboard/rules/:id', { schema: { hide: true } }, page)
  app.get('/dashboard/webhooks', { schema: { hide: true } }, page)
  app.get('/dashboard/webhooks/:id', { schema: { hide: true } }, page)
  app.get('/dashboard/overview', { schema: { hide: true } }, page)
  app.get('/dashboard/users', { schema: { hide: true } }, page)
}
