// The binding ships no type declarations; this is the part of its API the service uses.
declare module '@nxtedition/rocksdb' {
  export class RocksLevel {
    constructor (location: string, options?: object)
    open (options?: object): Promise<void>
    close (): Promise<void>
    getMany (keys: Buffer[], options?: object): Promise<Array<Buffer | undefined>>
    iterator (options?: object): unknown
    batch (): unknown
    readonly columns: Record<string, unknown>
    readonly status: string
    /** A RocksDB property of the default column family (rocksdb.cur-size-all-mem-tables, ...), as text. */
    getProperty (property: string): string
  }
}
