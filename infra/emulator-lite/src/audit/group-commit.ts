import type { AccessRecord } from './access-log.ts'

type Waiter = { records: readonly AccessRecord[]; resolve: () => void; reject: (error: unknown) => void }

/**
 * Group commit of the access log's read entries (issue 29): the entries of every request that is
 * ready to answer in one turn of the event loop are appended together, one transaction and one fsync,
 * and only then are those requests answered. Still durable before the answer; a failed append fails
 * every request of the batch (they answer an error, never the data).
 *
 * The flush runs from `setImmediate`, after the poll phase that delivered the requests, so it adds no
 * timer delay: an idle server flushes a lone request in the same turn it finished.
 */
export class GroupCommit {
  private queue: Waiter[] = []
  private scheduled = false
  /** Batches flushed and entries written (for tests and benchmarks). */
  readonly stats = { batches: 0, entries: 0 }

  /**
   * `schedule` runs the flush later in this turn; tests pass their own to hold it and look at what a
   * client sees in the meantime.
   */
  constructor(
    private readonly append: (records: readonly AccessRecord[]) => unknown,
    private readonly schedule: (flush: () => void) => void = setImmediate,
  ) {}

  /** Requests waiting for the next flush. */
  get queued(): number {
    return this.queue.length
  }

  /** Resolves once `records` are committed (with the rest of this turn's), rejects if that failed. */
  commit(records: readonly AccessRecord[]): Promise<void> {
    if (records.length === 0) return Promise.resolve()
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ records, resolve, reject })
      if (!this.scheduled) {
        this.scheduled = true
        this.schedule(() => this.flush())
      }
    })
  }

  /** Appends everything queued in one transaction, then settles the waiters. */
  flush(): void {
    this.scheduled = false
    const batch = this.queue
    this.queue = []
    if (batch.length === 0) return
    const records = batch.length === 1 ? (batch[0] as Waiter).records : batch.flatMap((waiter) => waiter.records)
    try {
      this.append(records)
    } catch (error) {
      for (const waiter of batch) waiter.reject(error)
      return
    }
    this.stats.batches += 1
    this.stats.entries += records.length
    for (const waiter of batch) waiter.resolve()
  }
}
