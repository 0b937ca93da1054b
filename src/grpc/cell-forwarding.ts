import * as grpc from '@grpc/grpc-js'
import { FORWARDED_HEADER, instanceOf } from '../services/cells.js'

/** One unary method as grpc-js defines it: its path and how its messages are written and read. */
export interface UnaryMethod {
  path: string
  requestSerialize(message: never): Buffer
  responseDeserialize(bytes: Buffer): unknown
}

/**
 * gRPC's half of cell forwarding (api/cell-forwarding.ts is REST's): a call for another cell's tenant, once
 * authenticated here, is made again on an instance of that cell (chosen by tenant, over a channel kept open),
 * with the caller's metadata, and its answer or status is returned as it came. A forwarded call carries
 * `fds-forwarded-by-cell` and is never forwarded again.
 */
export class GrpcCellForwarder {
  private readonly clients = new Map<string, grpc.Client>()

  constructor (readonly cell: number, private readonly addresses: ReadonlyMap<number, readonly string[]>) {}

  static wasForwarded (metadata: grpc.Metadata): boolean {
    return metadata.get(FORWARDED_HEADER).length > 0
  }

  forward (method: UnaryMethod, call: grpc.ServerUnaryCall<unknown, unknown>, tenant: string, cell: number, callback: (error: Partial<grpc.StatusObject> | null, value: unknown) => void): void {
    const addresses = this.addresses.get(cell) ?? []
    const address = addresses[instanceOf(tenant, addresses.length)]
    if (address === undefined) {
      callback({ code: grpc.status.UNAVAILABLE, details: `No gRPC address of cell ${cell} is configured (CELL_GRPC_URLS).` }, null)
      return
    }
    const metadata = call.metadata.clone()
    metadata.set(FORWARDED_HEADER, String(this.cell))
    this.client(address).makeUnaryRequest(method.path, m => method.requestSerialize(m as never), method.responseDeserialize, call.request, metadata, { deadline: Date.now() + 10_000 },
      (err: grpc.ServiceError | null, value?: unknown) => {
        if (err === null) callback(null, value)
        else callback({ code: err.code, details: err.details, metadata: err.metadata }, null)
      })
  }

  private client (address: string): grpc.Client {
    let client = this.clients.get(address)
    if (client === undefined) this.clients.set(address, client = new grpc.Client(address, grpc.credentials.createInsecure()))
    return client
  }

  close (): void {
    for (const c of this.clients.values()) c.close()
  }
}
