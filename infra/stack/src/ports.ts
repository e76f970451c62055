import { createServer } from 'node:net'

/** A port the stack needs is taken; the message names the port and the variable that moves it. */
export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    readonly variable: string,
  ) {
    super(`Port ${port} is already in use (${variable}). Stop what is using it, or set ${variable} to another port.`)
    this.name = 'PortInUseError'
  }
}

/** Resolves true when nothing listens on host:port (we can bind it ourselves). */
export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)))
  })
}

export async function assertPortsFree(ports: { port: number; variable: string }[], host = '127.0.0.1'): Promise<void> {
  for (const { port, variable } of ports) {
    if (!(await isPortFree(port, host))) throw new PortInUseError(port, variable)
  }
}

/** A port the OS reports free right now (tests start many stacks on one machine). */
export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen({ port: 0, host }, () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}
