import Fastify from 'fastify'

/** The baseline: a bare fastify that echoes a JSON body, no auth, no state. */
const app = Fastify()
app.post('/echo', async request => request.body)
const address = await app.listen({ host: '127.0.0.1', port: 0 })
process.stdout.write(`{"address":"${address}"}\n`)
