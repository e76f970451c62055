import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fromProto3JSON, toProto3JSON } from 'proto3-json-serializer'
import protobuf from 'protobufjs'

/**
 * The `google.firestore.v1.Firestore` service from Google's own published protos (the
 * `@google-cloud/firestore-api` package ships them as a protobuf.js descriptor), loaded from
 * node_modules at start: nothing of them is copied into this repository (ADR 0029).
 */
let root: protobuf.Root | undefined

export function firestoreRoot(): protobuf.Root {
  if (root) return root
  const require = createRequire(import.meta.url)
  // The package's exports map names no protos path: find it next to its entry point.
  const entry = require.resolve('@google-cloud/firestore-api')
  const descriptor = JSON.parse(readFileSync(join(dirname(entry), '..', 'protos', 'protos.json'), 'utf8'))
  root = protobuf.Root.fromJSON(descriptor)
  // The web SDK's transactions send `verify` writes (field 5 of Write's operation), which Google's
  // published Cloud protos lack: decoded without it, the write would arrive empty (docs/wire/firestore-rest.md#firebase-admin-set-up).
  const write = root.lookupType('google.firestore.v1.Write')
  if (write.fields.verify === undefined) {
    const verify = new protobuf.Field('verify', 5, 'string')
    write.add(verify)
    write.oneofs?.operation?.add(verify)
  }
  return root
}

export type Codec = {
  /** The request as the REST layer takes it: proto3's JSON mapping (what the REST API is). */
  decode(bytes: Uint8Array): Record<string, unknown>
  /** The REST layer's JSON answer as the response message's bytes. */
  encode(json: unknown): Uint8Array
}

function codecOf(request: protobuf.Type, response: protobuf.Type): Codec {
  return {
    decode: (bytes) => (toProto3JSON(request.decode(bytes)) ?? {}) as unknown as Record<string, unknown>,
    encode: (json) => response.encode(fromProto3JSON(response, json as never) as protobuf.Message).finish(),
  }
}

let methods: Map<string, Codec & { requestStream: boolean; responseStream: boolean }> | undefined

/** Every method of the Firestore service, by name, with its codec and streaming kind. */
export function firestoreMethods() {
  if (methods) return methods
  const service = firestoreRoot().lookupService('google.firestore.v1.Firestore')
  methods = new Map()
  for (const method of service.methodsArray) {
    method.resolve()
    methods.set(method.name, {
      ...codecOf(method.resolvedRequestType as protobuf.Type, method.resolvedResponseType as protobuf.Type),
      requestStream: method.requestStream === true,
      responseStream: method.responseStream === true,
    })
  }
  return methods
}
