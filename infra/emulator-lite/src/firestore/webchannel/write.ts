import type { IncomingMessage } from 'node:http'
import { AuthError } from '../../auth/errors.ts'
import { AccessWriter, type CoreDeps, type Ctx, type Listener, type Route, settle } from '../../http/core.ts'
import { ApiError, invalid } from '../../http/errors.ts'
import type { Caller } from '../../security/caller.ts'
import type { DatabaseRef } from '../paths.ts'
import { commit } from '../rpc/commit.ts'
import type { FirestoreService } from '../service.ts'
import { formatTimestamp } from '../values-extra.ts'
import { nextCommitTime } from '../writes.ts'

export type StreamIo = {
  /** Sends one response message (proto3 JSON). */
  send(response: Record<string, unknown>): void
  /** Ends the stream with a status. */
  fail(error: ApiError): void
}

let streams = 0

const token = (n: number) => Buffer.from(String(n)).toString('base64')

/**
 * One `Write` stream over WebChannel (docs/wire/firestore-streams.md, Write): a handshake with
 * the database only, answered with a stream id and token; then each request is one batch, committed
 * atomically by the REST layer's `commit` under the session's caller (the same rules, Adgangslog and
 * disk checks as REST) and answered, in order, with a new token, one result per write and the commit
 * time. A failing batch ends the stream with its status; the SDK opens a new one and re-sends the rest.
 */
export class WriteStream {
  private queue: Promise<void> = Promise.resolve()
  private db: DatabaseRef | null = null
  private sent = 0
  private closed = false
  private readonly id = String(++streams)

  constructor(
    private readonly fs: FirestoreService,
    private readonly caller: Caller,
    private readonly incoming: IncomingMessage,
    private readonly listener: Listener,
    private readonly deps: CoreDeps,
    private readonly io: StreamIo,
  ) {}

  close(): void {
    this.closed = true
  }

  /** One WriteRequest, in arrival order; each is finished before the next starts. */
  receive(request: Record<string, unknown>): void {
    this.queue = this.queue
      .then(() => (this.closed ? undefined : this.handle(request)))
      .catch((error: unknown) => {
        if (this.closed) return
        this.io.fail(
          error instanceof ApiError
            ? error
            : error instanceof AuthError
              ? new ApiError('UNAUTHENTICATED', error.message)
              : new ApiError('INTERNAL', 'Internal error'),
        )
        if (!(error instanceof ApiError || error instanceof AuthError)) console.error('emulator-lite: Write', error)
        this.close()
      })
  }

  private async handle(request: Record<string, unknown>): Promise<void> {
    const writes = Array.isArray(request.writes) ? request.writes : []
    if (this.db === null) {
      if (writes.length > 0) throw invalid("'writes' must not be set on an initial write request.")
      const match =
        typeof request.database === 'string' ? /^projects\/([^/]+)\/databases\/([^/]+)$/.exec(request.database) : null
      if (!match) throw invalid('The first write request needs the database')
      this.db = { project: match[1] as string, database: match[2] as string }
      this.io.send({ streamId: this.id, streamToken: token(this.sent++) })
      return
    }
    // The "last request" of a closing client carries no writes: a token and a time are all it needs.
    if (writes.length === 0) {
      this.io.send({ streamToken: token(this.sent++), commitTime: formatTimestamp(nextCommitTime()) })
      return
    }
    const c = this.context()
    const result = (await commit(this.fs, c, this.db, { writes })) as Record<string, unknown>
    // The rules check that must have happened and the Adgangslog entries, before the ack leaves.
    await settle(c)
    if (this.closed) return
    this.io.send({ streamToken: token(this.sent++), ...result })
  }

  /** The request context the REST handlers read, for this stream's caller. */
  private context(): Ctx {
    const route: Route = {
      name: 'firestore.webchannel.Write',
      method: 'POST',
      path: '/google.firestore.v1.Firestore/Write/channel',
      service: 'firestore',
      rules: 'firestore',
      project: () => this.db?.project ?? '',
      handler: () => {
        throw new Error('not an HTTP route')
      },
    }
    const vars = new Map<string, unknown>([
      ['route', route],
      ['listener', this.listener],
      ['caller', this.caller],
      ['url', new URL('http://webchannel/')],
      ['rulesDecided', false],
      ['access', new AccessWriter(this.caller, this.incoming)],
      ['settle', { route, deps: this.deps, done: false }],
    ])
    return {
      get: (key: string) => vars.get(key),
      set: (key: string, value: unknown) => vars.set(key, value),
      env: { incoming: this.incoming },
      req: { method: 'POST' },
    } as unknown as Ctx
  }
}
