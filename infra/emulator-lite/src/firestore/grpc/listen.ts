import { ApiError } from '../../http/errors.ts'

// The Listen core is transport-neutral (src/firestore/listen/); gRPC keeps its names.
export { LISTEN_BUFFER_LIMIT, type ListenIo, ListenSession } from '../listen/session.ts'

/** Frames gRPC messages out of a request stream as they arrive. */
export function messageReader(onMessage: (message: Buffer) => void) {
  let pending: Buffer = Buffer.alloc(0)
  return (chunk: Buffer) => {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
    while (pending.length >= 5) {
      if (pending[0] !== 0) throw new ApiError('UNIMPLEMENTED', 'Compressed gRPC messages are not supported')
      const length = pending.readUInt32BE(1)
      if (pending.length < 5 + length) break
      onMessage(pending.subarray(5, 5 + length))
      pending = pending.subarray(5 + length)
    }
  }
}
