import * as grpc from '@grpc/grpc-js'
import { fromProto3JSON, toProto3JSON } from 'proto3-json-serializer'
import type protobuf from 'protobufjs'
import { firestoreRoot } from '../src/firestore/grpc/protos.ts'

type Reply = { code: number; details: string; messages: Record<string, unknown>[] }

/**
 * What every test call of `method` needs, in proto3 JSON (REST's shapes): a @grpc/grpc-js client for
 * `target` (a port on 127.0.0.1, or `host:port`), the method's descriptor, the (de)serialisers and
 * the metadata (the caller's `authorization`; `database` as the full SDK's resource prefix, by which
 * the official emulator routes a stream).
 */
export function firestoreCall(target: number | string, method: string, authorization?: string, database?: string) {
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
  if (database) metadata.set('google-cloud-resource-prefix', database)
  const serialize = (value: unknown) =>
    Buffer.from(requestType.encode(fromProto3JSON(requestType, value as never) as protobuf.Message).finish())
  const deserialize = (bytes: Buffer) => toProto3JSON(responseType.decode(bytes)) as Record<string, unknown>
  return { rpc, client, metadata, serialize, deserialize, path: `/google.firestore.v1.Firestore/${method}` }
}

/** One call through @grpc/grpc-js, with the request and replies in proto3 JSON (REST's shapes). */
/** `target`: a port on 127.0.0.1, or `host:port`. */
export function call(
  target: number | string,
  method: string,
  request: unknown,
  authorization?: string,
): Promise<Reply> {
  const { rpc, client, metadata, serialize, deserialize, path } = firestoreCall(target, method, authorization)
  return new Promise((resolve) => {
    const messages: Record<string, unknown>[] = []
    const done = (code: number, details: string) => {
      client.close()
      resolve({ code, details, messages })
    }
    if (rpc.responseStream) {
      const stream = client.makeServerStreamRequest(path, serialize, deserialize, request, metadata)
      stream.on('data', (message: Record<string, unknown>) => messages.push(message))
      stream.on('error', (error: grpc.ServiceError) => done(error.code, error.details))
      stream.on('status', (status: grpc.StatusObject) => {
        if (status.code === 0) done(0, '')
      })
    } else
      client.makeUnaryRequest(path, serialize, deserialize, request, metadata, (error, reply) => {
        if (reply) messages.push(reply)
        done(error?.code ?? 0, error?.details ?? '')
      })
  })
}
