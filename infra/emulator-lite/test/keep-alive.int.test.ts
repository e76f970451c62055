import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { type EmulatorLite, KEEP_ALIVE_MS, startEmulatorLite } from '../src/index.ts'

// A client's pooled connection must never meet the server closing it: Node's agents keep an idle
// connection 5 s, and a request sent on it as the server times it out is reset (ECONNRESET), which
// the seed and the api met on a busy machine. So the server keeps idle connections longer than any
// client pool does, and the client is always the one that closes.
let emulator: EmulatorLite

beforeAll(async () => {
  emulator = await startEmulatorLite({ firestorePort: 0, storagePort: 0, authPort: 0, inMemory: true })
})
afterAll(async () => {
  await emulator?.close()
})

/** Sends one request on the socket and resolves with the status line of its answer. */
function exchange(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = ''
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1')
      const end = text.indexOf('\r\n\r\n')
      if (end < 0) return
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(text.slice(0, end))?.[1] ?? 0)
      if (text.length - end - 4 < length) return
      cleanup()
      resolve(text.slice(0, text.indexOf('\r\n')))
    }
    const onClose = () => {
      cleanup()
      reject(new Error('the server closed the connection'))
    }
    const cleanup = () => {
      socket.off('data', onData)
      socket.off('close', onClose)
    }
    socket.on('data', onData)
    socket.on('close', onClose)
    socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n')
  })
}

test('an idle keep-alive connection is still served after a client pool would have dropped it (6 s)', async () => {
  expect(KEEP_ALIVE_MS).toBeGreaterThan(5_000)
  const socket = connect(emulator.firestorePort, '127.0.0.1')
  await new Promise((resolve) => socket.once('connect', resolve))
  try {
    expect(await exchange(socket)).toMatch(/^HTTP\/1\.1 200/)
    await new Promise((resolve) => setTimeout(resolve, 6_000))
    expect(await exchange(socket)).toMatch(/^HTTP\/1\.1 200/)
  } finally {
    socket.destroy()
  }
}, 20_000)
