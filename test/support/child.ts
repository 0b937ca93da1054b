import { spawn, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { once } from 'node:events'
import { OPERATOR_TOKEN } from './app.js'

const root = path.resolve(import.meta.dirname, '../..')

export interface ServiceProcess { child: ChildProcess, url: string, output: () => string }

/** Starts the real service entry point (src/app/main.ts through tsx) as a child process and waits until it listens. */
export async function startService (env: Record<string, string>, args: string[] = [], ready = /"address":"(http:\/\/[^"]+)"/): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/app/main.ts'), ...args], {
    cwd: root,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', GRPC_PORT: '0', METRICS_PORT: '0', METRICS_TOKEN: OPERATOR_TOKEN, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stderr!.on('data', d => { output += d })
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${output}`)), 30000)
    child.stdout!.on('data', d => {
      output += d
      const m = ready.exec(output)
      if (m !== null) { clearTimeout(timer); resolve(m[1] ?? '') }
    })
    child.once('exit', code => { clearTimeout(timer); reject(new Error(`service exited with ${code}:\n${output}`)) })
  })
  return { child, url, output: () => output }
}

/** Resolves when the child has exited, even if it already has. */
export async function exited (s: ServiceProcess): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return
  await once(s.child, 'exit')
}

export async function stopService (s: ServiceProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return
  const exited = once(s.child, 'exit')
  s.child.kill(signal)
  await exited
}

/** Starts one topology alone (`main.ts topology <name>`) and waits until it runs. */
export function startTopology (name: string, env: Record<string, string>): Promise<ServiceProcess> {
  return startService(env, ['topology', name], /"msg":"topology running"/)
}
