import * as grpc from '@grpc/grpc-js'
import { fromProto3JSON, toProto3JSON } from 'proto3-json-serializer'
import type protobuf from 'protobufjs'
import { firestoreRoot } from '../src/firestore/grpc/protos.ts'

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
  const service = firestoreRoot().lookupService('google.firestore.v1.Firestore')
  const rpc = service.methods[method] as protobuf.Method
  rpc.resolve()
  const requestType = rpc.resolvedRequestType as protobuf.Type
  const responseType = rpc.resolvedResponseType as protobuf.Type
  const client = new grpc.Client(
    typeof target === 'number' ? `127.0.0.1:${target}` : target,
    grpc.credentials.createInsecure(),
  )
  const metadata = new grpc.Metadata()
  if (authorization) metadata.set('authorization', authorization)
  // What the full SDK sends along (the official emulator routes a stream by it).
  if (database) metadata.set('google-cloud-resource-prefix', database)
  const serialize = (value: unknown) =>
    Buffer.from(requestType.encode(fromProto3JSON(requestType, value as never) as protobuf.Message).finish())
  const deserialize = (bytes: Buffer) => toProto3JSON(responseType.decode(bytes)) as Record<string, unknown>
  const call = client.makeBidiStreamRequest(
    `/google.firestore.v1.Firestore/${method}`,
    serialize,
    deserialize,
    metadata,
  )
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
