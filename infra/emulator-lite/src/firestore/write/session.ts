import { type Ctx, settle } from '../../http/core.ts'
import { invalid } from '../../http/errors.ts'
import type { Caller } from '../../security/caller.ts'
import { parseResourceName } from '../grpc/call.ts'
import type { DatabaseRef } from '../paths.ts'
import { guardedWrites } from '../rpc/commit.ts'
import type { FirestoreService } from '../service.ts'

export type WriteIo = {
  /** Sends one WriteResponse (proto3 JSON). */
  send(response: Record<string, unknown>): void
  /** Ends the stream: with OK without an error, else with the error's status. Called once. */
  end(error?: unknown): void
}

/** What the transport knows of the call: who is calling, and the context a REST handler runs in. */
export type WriteCall = {
  /** The caller, decided when the handshake names the database (gRPC reads the call's metadata then). */
  callerFor(database: string): Caller
  /** A fresh request context per batch (each settles once), for the REST commit path. */
  contextFor(caller: Caller, database: string): Ctx
}

/** Stream ids count up over the process, as the official emulator's do ("0", "1", …). */
let nextStreamId = 0

/** A stream token: the number of responses sent before it, base64 of its decimal digits (`MA==`, `MQ==`). */
const tokenOf = (count: number) => Buffer.from(String(count)).toString('base64')

const hasWrites = (request: Record<string, unknown>) => Array.isArray(request.writes) && request.writes.length > 0

/**
 * One `Write` stream of the full SDKs (ADR 0029), whatever carries it (gRPC in `grpc/write.ts`,
 * WebChannel in `webchannel/server.ts`): a handshake (the first request names the database and nothing
 * else; the answer is a stream id and token), then one atomic commit per request — REST's `:commit`
 * writes path with the same identity, rules, limits and Adgangslog (`…Firestore.Write`), acked after
 * its entries are stored, as REST answers — each answered with the next token, the write results and
 * the commit time. A request without writes is the client's last: answered with a token, then the
 * stream ends with OK. The first error ends the stream with its status; requests after it are not
 * applied (the SDK re-sends them on a new stream). Requests are handled one after the other.
 */
export class WriteSession {
  private queue: Promise<void> = Promise.resolve()
  private stream: { database: string; db: DatabaseRef; caller: Caller; sent: number } | null = null
  private done = false

  constructor(
    private readonly fs: FirestoreService,
    private readonly call: WriteCall,
    private readonly io: WriteIo,
  ) {}

  /** Whether the stream has ended (or was closed): nothing more is applied. */
  get ended(): boolean {
    return this.done
  }

  /** The transport went away: nothing more is applied or sent. */
  close(): void {
    this.done = true
  }

  /** One WriteRequest, in arrival order; resolves once it has been handled. */
  receive(request: Record<string, unknown>): Promise<void> {
    const step = this.queue.then(async () => {
      if (this.done) return
      try {
        if (this.stream === null) this.handshake(request)
        else await this.apply(request, this.stream)
      } catch (error) {
        this.end(error)
      }
    })
    this.queue = step
    return step
  }

  /** Ends the stream after what was received before: OK when the client half-closed, or an error. */
  finish(error?: unknown): void {
    this.queue = this.queue.then(() => this.end(error))
  }

  private end(error?: unknown): void {
    if (this.done) return
    this.done = true
    this.io.end(error)
  }

  private handshake(request: Record<string, unknown>): void {
    if (request.database === undefined || request.database === '')
      throw invalid("'database' must be set on an initial write request.")
    if (request.streamToken !== undefined && request.streamToken !== '')
      throw invalid("Resuming streams is not supported, 'stream_token' must not be set on an initial write request.")
    if (hasWrites(request)) throw invalid("'writes' must not be set on an initial write request.")
    const database = String(request.database)
    const { db, segments } = parseResourceName(database)
    if (segments.length > 0 || database.endsWith('/documents')) throw invalid(`Invalid database name: ${database}`)
    this.stream = { database, db, caller: this.call.callerFor(database), sent: 0 }
    this.io.send({ streamId: String(nextStreamId++), streamToken: tokenOf(this.stream.sent++) })
  }

  private async apply(request: Record<string, unknown>, stream: NonNullable<WriteSession['stream']>): Promise<void> {
    if (request.database !== undefined && request.database !== '' && request.database !== stream.database)
      throw invalid(
        `Request specified a database (${String(request.database)}) that did not match the expected database (${stream.database})`,
      )
    if (!hasWrites(request)) {
      // The client's last request (its idle close): answered, then the stream ends.
      this.io.send({ streamToken: tokenOf(stream.sent++) })
      this.end()
      return
    }
    const c = this.call.contextFor(stream.caller, stream.database)
    // A WriteRequest has no transaction: the REST commit's writes path, logged as `…Firestore.Write`.
    const result = guardedWrites(this.fs, c, stream.db, request.writes, 'Write') as Record<string, unknown>
    // The rules check that must have happened and the Adgangslog entries, before the ack leaves.
    await settle(c)
    if (this.done) return
    this.io.send({ streamToken: tokenOf(stream.sent++), ...result })
  }
}
