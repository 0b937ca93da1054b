/**
 * Starts a script of this repository (tsx) as a child process and waits for its listen address in its pino log.
 * BENCH_NODE_ARGS adds node flags to it, e.g. `--cpu-prof --cpu-prof-dir=/tmp/profiles` for a CPU profile.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(a => a !== '')

/** The operator's credential (METRICS_TOKEN) of the services started here: the whole /healthz report is shown to it. */
export const OPERATOR_TOKEN = 'bench-operator-token'
export const OPERATOR_AUTH = { authorization: `Bearer ${OPERATOR_TOKEN}` }

export function start (script: string, env: Record<string, string>): Promise<{ child: ChildProcess, url: string }> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(root, script)], { cwd: root, env: { METRICS_PORT: '0', METRICS_TOKEN: OPERATOR_TOKEN, ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', d => {
      out += d
      const m = /"address":"(http:\/\/[^"]+)"/.exec(out)
      if (m !== null) resolve({ child, url: m[1]! })
    })
    child.once('exit', code => reject(new Error(`${script} exited ${code}: ${out}`)))
  })
}

