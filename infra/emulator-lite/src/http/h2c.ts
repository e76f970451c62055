import type { Server } from 'node:http'
import type { Http2Server, Http2Session } from 'node:http2'
import type { Socket } from 'node:net'

/** How every HTTP/2 connection with prior knowledge (h2c, as gRPC clients open it) begins. */
const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1')

/**
 * Serves HTTP/1.1 and cleartext HTTP/2 on one port: each new connection's first bytes decide
 * whether the HTTP/1 server keeps it or the HTTP/2 one takes it (the bytes read are put back).
 * Returns a function that ends every HTTP/2 session and every connection not yet handed over, for
 * closing the server.
 */
export function acceptH2c(server: Server, h2: Http2Server): () => void {
  const http1 = server.listeners('connection') as ((socket: Socket) => void)[]
  server.removeAllListeners('connection')
  const sessions = new Set<Http2Session>()
  h2.on('session', (session: Http2Session) => {
    sessions.add(session)
    session.once('close', () => sessions.delete(session))
  })
  // Connections whose first bytes have not come yet: closed with the server.
  const sniffing = new Set<Socket>()
  server.on('connection', (socket: Socket) => {
    sniffing.add(socket)
    // Until a server owns the socket, a reset (ECONNRESET before the first byte) must not go unhandled.
    const ignore = () => {}
    socket.on('error', ignore)
    socket.once('close', () => sniffing.delete(socket))
    socket.once('data', (chunk: Buffer) => {
      sniffing.delete(socket)
      socket.off('error', ignore)
      socket.pause()
      socket.unshift(chunk)
      const length = Math.min(chunk.length, PREFACE.length)
      // The HTTP/2 session reads the bytes put back itself, then the socket's handle: no resume.
      if (length > 0 && chunk.subarray(0, length).equals(PREFACE.subarray(0, length))) h2.emit('connection', socket)
      else {
        for (const listener of http1) listener.call(server, socket)
        socket.resume()
      }
    })
  })
  return () => {
    for (const session of sessions) session.destroy()
    for (const socket of sniffing) socket.destroy()
  }
}
