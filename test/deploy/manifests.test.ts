import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Ajv } from 'ajv'
import { parse, parseAllDocuments } from 'yaml'
import { describe, expect, it } from 'vitest'
import { TOPOLOGIES } from '../../topologies/registry.js'

/**
 * deploy/ checked statically, as there is no container engine here: the Helm chart lints and renders to
 * manifests that kubeconform accepts under the Kubernetes schemas with -strict (no unknown field), the compose
 * file follows the Compose specification's schema, and the Dockerfile builds a non-root Node 24 image in stages.
 * The tools come from deploy/tools.sh (run by .ci/run).
 */
const root = path.resolve(import.meta.dirname, '../..')
const tools = path.join(root, '.tools')
const helm = path.join(tools, 'bin/helm')
const kubeconform = path.join(tools, 'bin/kubeconform')
const chart = path.join(root, 'deploy/helm/fraud-decision-service')
const K8S_SCHEMAS = path.join(tools, 'schemas/kubernetes-1.33.0')
const missing = [helm, kubeconform, K8S_SCHEMAS, path.join(tools, 'schemas/compose_spec.json')].filter(p => !existsSync(p))
if (missing.length > 0) console.warn(`[skip] deploy/ static checks: run \`bash deploy/tools.sh\` first (missing ${missing.map(p => path.relative(root, p)).join(', ')})`)

const run = (file: string, args: string[], input?: string) => execFileSync(file, args, { cwd: root, encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] })
const render = (...set: string[]) => run(helm, ['template', 'fds', chart, '--kube-version', '1.33.0', ...set.flatMap(s => ['--set', s])])
/** kubeconform's verdict on manifests: throws with its report when one is invalid. */
const conform = (manifests: string) => {
  try {
    return run(kubeconform, ['-strict', '-summary', '-skip', 'ServiceMonitor', '-schema-location', `${K8S_SCHEMAS}/{{ .ResourceKind }}{{ .KindSuffix }}.json`, '-'], manifests)
  } catch (err) {
    throw new Error(String((err as { stdout?: string }).stdout ?? err))
  }
}

describe.skipIf(missing.length > 0)('deploy/ checked statically', () => {
  it('the chart lints, and renders to manifests kubeconform accepts with -strict', () => {
    expect(run(helm, ['lint', '--strict', chart, '--kube-version', '1.33.0'])).toContain('0 chart(s) failed')
    for (const manifests of [render(), render('metricsToken=secret-token', 'otlpEndpoint=http://collector:4318', 'api.hpa.enabled=false'), render('api.cells=3')]) {
      expect(conform(manifests)).toMatch(/Invalid: 0, Errors: 0/)
    }
    // The check can fail: a field Kubernetes does not know is refused.
    expect(() => conform(render().replace('podManagementPolicy: Parallel', 'podManagementPolicy: Parallel\n  replicaz: 3'))).toThrow(/additional properties|replicaz/)
  })

  it('the chart runs the API and each topology as its own StatefulSet with a volume, HPA, PDB, probes and metrics', () => {
    const docs = parseAllDocuments(render()).map(d => d.toJSON() as { kind: string, metadata: { name: string }, spec: Record<string, any> }).filter(d => d !== null)
    const sets = docs.filter(d => d.kind === 'StatefulSet')
    expect(sets.map(s => s.metadata.name).sort()).toEqual(['fds-api', ...Object.keys(TOPOLOGIES).map(t => `fds-${t}`)].sort())
    for (const s of sets) {
      const c = s.spec.template.spec.containers[0]
      expect(s.spec.volumeClaimTemplates[0].metadata.name, s.metadata.name).toBe('data')
      expect(c.livenessProbe, s.metadata.name).toBeDefined()
      expect(c.ports.some((p: { name: string }) => p.name === 'metrics'), s.metadata.name).toBe(true)
      expect(s.spec.template.spec.securityContext.runAsNonRoot).toBe(true)
      expect(s.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(10)
    }
    const api = sets.find(s => s.metadata.name === 'fds-api')!.spec.template.spec.containers[0]
    expect(api.readinessProbe.httpGet.path).toBe('/readyz')
    expect(api.livenessProbe.httpGet.path).toBe('/healthz')
    expect(docs.filter(d => d.kind === 'PodDisruptionBudget')).toHaveLength(sets.length)
    expect(docs.filter(d => d.kind === 'HorizontalPodAutoscaler').length).toBeGreaterThan(1)
    expect(docs.some(d => d.kind === 'ServiceMonitor')).toBe(true)
  })

  it('the chart deploys cells: a StatefulSet per cell, each told its cell and where the others answer, one Service over all', () => {
    const docs = parseAllDocuments(render('api.cells=3')).map(d => d.toJSON() as { kind: string, metadata: { name: string }, spec: Record<string, any> }).filter(d => d !== null)
    const apis = docs.filter(d => d.kind === 'StatefulSet' && d.metadata.name.startsWith('fds-api'))
    expect(apis.map(s => s.metadata.name)).toEqual(['fds-api-cell-0', 'fds-api-cell-1', 'fds-api-cell-2'])
    for (const [cell, s] of apis.entries()) {
      const env = Object.fromEntries((s.spec.template.spec.containers[0].env as Array<{ name: string, value?: string }>).map(e => [e.name, e.value]))
      expect(env).toMatchObject({ CELLS: '3', CELL: String(cell) })
      const others = [0, 1, 2].filter(c => c !== cell)
      expect(env.CELL_URLS!.split(',').filter(e => e !== '')).toEqual(others.map(c => `${c}=http://fds-api-cell-${c}-headless:8080`))
      expect(env.CELL_GRPC_URLS!.split(',').filter(e => e !== '')).toEqual(others.map(c => `${c}=fds-api-cell-${c}-headless:50051`))
      expect(s.spec.selector.matchLabels['fraud-decision-service/cell']).toBe(String(cell))
      expect(s.spec.template.metadata.labels['fraud-decision-service/cell']).toBe(String(cell))
    }
    const shared = docs.find(d => d.kind === 'Service' && d.metadata.name === 'fds-api')!
    expect(shared.spec.selector['fraud-decision-service/cell']).toBeUndefined()
    const topology = docs.find(d => d.kind === 'StatefulSet' && d.metadata.name === 'fds-feedback')!
    expect(topology.spec.template.spec.containers[0].env).toContainEqual({ name: 'CELLS', value: '3' })
  })

  it('the compose file follows the Compose specification and runs Kafka in KRaft mode, the API, each topology, Prometheus and Grafana', () => {
    const schema = JSON.parse(readFileSync(path.join(tools, 'schemas/compose_spec.json'), 'utf8')) as Record<string, unknown>
    delete schema.$schema
    // The schema names its parts with draft-04's `id` (a string); Ajv knows only `$id`, and nothing refers to them.
    const withoutIds = (node: unknown): unknown => Array.isArray(node)
      ? node.map(withoutIds)
      : node !== null && typeof node === 'object' ? Object.fromEntries(Object.entries(node).filter(([k, v]) => !(k === 'id' && typeof v === 'string')).map(([k, v]) => [k, withoutIds(v)])) : node
    const validate = new Ajv({ strict: false, allErrors: true }).compile(withoutIds(schema) as Record<string, unknown>)
    const compose = parse(readFileSync(path.join(root, 'deploy/compose/compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, { command?: string[], environment?: Record<string, string> }> }
    // Anchors' x- keys are the file's own; the schema allows them.
    expect(validate(compose), JSON.stringify(validate.errors)).toBe(true)
    const services = compose.services
    expect(services.kafka!.environment!.KAFKA_PROCESS_ROLES).toBe('broker,controller')
    expect(services.api!.environment!.TOPOLOGIES).toBe('none')
    // Two cells of one API instance each, each reaching the other.
    expect(services.api!.environment).toMatchObject({ CELLS: '2', CELL: '0', CELL_URLS: '1=http://api-cell-1:8080', CELL_GRPC_URLS: '1=api-cell-1:50051' })
    expect(services['api-cell-1']!.environment).toMatchObject({ CELLS: '2', CELL: '1', CELL_URLS: '0=http://api:8080', CELL_GRPC_URLS: '0=api:50051', TOPOLOGIES: 'none' })
    for (const t of Object.keys(TOPOLOGIES)) expect(services[t]?.command, t).toEqual(['topology', t])
    expect(Object.keys(services)).toEqual(expect.arrayContaining(['prometheus', 'grafana']))
    const scrape = readFileSync(path.join(root, 'deploy/compose/prometheus.yml'), 'utf8')
    for (const t of ['api', 'api-cell-1', ...Object.keys(TOPOLOGIES)]) expect(scrape, t).toContain(`${t}:9464`)
    const dashboard = JSON.parse(readFileSync(path.join(root, 'deploy/compose/grafana/dashboards/fraud-decision-service.json'), 'utf8')) as { panels: Array<{ targets: Array<{ expr: string }> }> }
    const exprs = dashboard.panels.flatMap(p => p.targets.map(t => t.expr)).join('\n')
    for (const metric of ['fds_decisions_total', 'fds_http_request_duration_seconds', 'fds_consumer_lag_records', 'fds_outbox_pending', 'fds_webhook_delivery_attempts_total', 'fds_rocksdb']) expect(exprs, metric).toContain(metric)
    // A service the specification does not know a key of is refused.
    expect(validate({ services: { api: { imagez: 'x' } } })).toBe(false)
  })

  it('the Dockerfile builds in stages and runs Node 24 as a non-root user', () => {
    const dockerfile = readFileSync(path.join(root, 'deploy/docker/Dockerfile'), 'utf8')
    const froms = dockerfile.split('\n').filter(l => l.startsWith('FROM '))
    expect(froms).toHaveLength(2)
    for (const f of froms) expect(f).toMatch(/^FROM node:24-[a-z]+-slim/)
    expect(dockerfile).toMatch(/^USER node$/m)
    expect(dockerfile).toMatch(/^ENTRYPOINT \["node", "dist\/src\/app\/main.js"\]$/m)
    const ignored = readFileSync(path.join(root, '.dockerignore'), 'utf8').split('\n')
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'data']))
  })
})

// Keeps a rendered copy for whoever wants to read it after a run.
if (missing.length === 0) writeFileSync(path.join(mkdtempSync(path.join(tmpdir(), 'fds-chart-')), 'rendered.yaml'), render())
