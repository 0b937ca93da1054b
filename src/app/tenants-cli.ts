/**
 * The operator API from a shell (docs/operations.md#tenants): each command is one request to a running instance,
 * `SERVICE_URL` (default http://127.0.0.1:<PORT>), with `OPERATOR_TOKEN`; it prints the JSON answer and exits 0
 * on success, 1 on an error answer, 2 on a wrong command line.
 *   main.js tenants create <name> | list | get <id> | suspend <id> | resume <id> | delete <id> --yes
 */
const USAGE = 'usage: main.js tenants create <name> | list | get <id> | suspend <id> | resume <id> | delete <id> --yes'

/** The request a command line stands for, or undefined when it is not one. */
export function tenantsRequest (args: readonly string[]): { method: 'GET' | 'POST' | 'DELETE', path: string, body?: object } | undefined {
  const [command, arg] = args
  const id = arg === undefined ? undefined : encodeURIComponent(arg)
  if (command === 'create' && arg !== undefined && args.length === 2) return { method: 'POST', path: '/admin/v1/tenants', body: { name: arg } }
  if (command === 'list' && args.length === 1) return { method: 'GET', path: '/admin/v1/tenants?limit=100' }
  if (command === 'get' && id !== undefined && args.length === 2) return { method: 'GET', path: `/admin/v1/tenants/${id}` }
  if ((command === 'suspend' || command === 'resume') && id !== undefined && args.length === 2) return { method: 'POST', path: `/admin/v1/tenants/${id}/${command}` }
  // Erasure cannot be undone: the command line says so twice.
  if (command === 'delete' && id !== undefined && args.length === 3 && args[2] === '--yes') return { method: 'DELETE', path: `/admin/v1/tenants/${id}` }
  return undefined
}

export async function tenantsCli (args: readonly string[], env: NodeJS.ProcessEnv, out: (line: string) => void = line => process.stdout.write(line + '\n')): Promise<number> {
  const request = tenantsRequest(args)
  if (request === undefined) { out(USAGE); return 2 }
  const token = env.OPERATOR_TOKEN
  if (token === undefined || token === '') { out('OPERATOR_TOKEN is not set: the operator API answers it only'); return 2 }
  const base = env.SERVICE_URL ?? `http://127.0.0.1:${env.PORT ?? '8080'}`
  const res = await fetch(base + request.path, {
    method: request.method,
    headers: { authorization: `Bearer ${token}`, ...(request.body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) })
  })
  out(JSON.stringify(await res.json(), null, 2))
  return res.ok ? 0 : 1
}
