import type * as grpc from '@grpc/grpc-js'
import { firestoreCall } from './grpc-client.ts'

export type StreamEvent = { message: Record<string, unknown> } | { code: number; details: string }

/**
 * A bidirectional call (`Write`, `Listen`) through @grpc/grpc-js, requests and replies in proto3
 * JSON (REST's shapes). `next()` resolves with the next reply, or with the call's final status
 * (`{code, details}`) once it has ended; `send`/`end` are the client's half.
 */
export function openStream(
  target: number | string,
  method: 'Write' | 'Listen',
  authorization?: string,
  database?: string,
) {
  const { client, metadata, serialize, deserialize, path } = firestoreCall(target, method, authorization, database)
  const call = client.makeBidiStreamRequest(path, serialize, deserialize, metadata)
  const events: StreamEvent[] = []
  const waiting: ((event: StreamEvent) => void)[] = []
  let ended: StreamEvent | null = null
  const push = (event: StreamEvent) => {
    const waiter = waiting.shift()
    if (waiter) waiter(event)
    else events.push(event)
  }
  const finish = (code: number, details: string) => {
    if (ended) return
    ended = { code, details }
    push(ended)
    client.close()
  }
  call.on('data', (message: Record<string, unknown>) => push({ message }))
  call.on('error', (error: grpc.ServiceError) => {
    if (process.env.DEBUG_STREAM) console.error(error)
    finish(error.code, error.details)
  })
  call.on('status', (status: grpc.StatusObject) => {
    if (status.code === 0) finish(0, '')
  })
  return {
    send: (request: unknown) => call.write(request),
    end: () => call.end(),
    cancel: () => call.cancel(),
    /** The next reply or the final status; after the end, the final status again. */
    next: (): Promise<StreamEvent> => {
      const event = events.shift()
      if (event) return Promise.resolve(event)
      if (ended) return Promise.resolve(ended)
      return new Promise((resolve) => waiting.push(resolve))
    },
  }
}
