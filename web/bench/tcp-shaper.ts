import { connect, createServer, type Server, type Socket } from 'node:net'

/** A link's direction: its rate in bytes per second and when it is next free (ms, Date.now()). */
type Link = { rate: number; free: number }

/**
 * The tablet's wifi as a TCP proxy: one downlink and one uplink shared by every connection (so six
 * HTTP/1.1 connections get no more bandwidth than one HTTP/2 connection), each byte delayed by half
 * the round trip, the bytes of each connection in their order. Used instead of Chromium's network
 * emulation where HTTP/2 is measured: with that emulation, fetches over HTTP/2 were seen to stall for
 * 20 s to 158 s (headers in, bodies never), 2 of 20 runs, while over this proxy and unthrottled none
 * did (web/BENCHMARKS.md, 2026-11-26).
 */
export function startTcpShaper(
  target: number,
  { downBitsPerSecond = 10_000_000, upBitsPerSecond = 5_000_000, roundTripMs = 40 } = {},
): Promise<{ port: number; close: () => Promise<void> }> {
  const down: Link = { rate: downBitsPerSecond / 8, free: 0 }
  const up: Link = { rate: upBitsPerSecond / 8, free: 0 }
  const sockets = new Set<Socket>()
  const pipe = (link: Link, from: Socket, to: Socket) => {
    const queue: { at: number; chunk: Buffer }[] = []
    let timer: NodeJS.Timeout | null = null
    let ended = false
    const pump = () => {
      timer = null
      while (queue.length > 0 && (queue[0]?.at ?? 0) <= Date.now()) {
        const next = queue.shift()
        if (next && !to.destroyed) to.write(next.chunk)
      }
      if (queue.length > 0) timer = setTimeout(pump, Math.max(1, (queue[0]?.at ?? 0) - Date.now()))
      else if (ended) to.end()
    }
    from.on('data', (chunk: Buffer) => {
      const now = Date.now()
      link.free = Math.max(now, link.free) + (chunk.length / link.rate) * 1000
      queue.push({ at: link.free + roundTripMs / 2, chunk })
      timer ??= setTimeout(pump, Math.max(1, link.free + roundTripMs / 2 - now))
    })
    from.on('end', () => {
      ended = true
      if (timer === null && queue.length === 0) to.end()
    })
  }
  const server: Server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1')
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
    }
    pipe(up, client, upstream)
    pipe(down, upstream, client)
    client.on('error', () => upstream.destroy())
    upstream.on('error', () => client.destroy())
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      resolve({
        port: typeof address === 'object' && address !== null ? address.port : 0,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy()
            server.close(() => done())
          }),
      })
    }),
  )
}
