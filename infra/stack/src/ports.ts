import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'

/** A port the stack needs is taken; the message names the port and the variable that moves it. */
export class PortInUseError extends Error {
  // Plain fields, not constructor parameter properties: infra/docker's scripts import this module under
  // Node's own type stripping, which takes only erasable syntax.
  readonly port: number
  readonly variable: string

  constructor(port: number, variable: string) {
    super(`Port ${port} is already in use (${variable}). Stop what is using it, or set ${variable} to another port.`)
    this.name = 'PortInUseError'
    this.port = port
    this.variable = variable
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

/**
 * The first port of the kernel's ephemeral range (Linux: ip_local_port_range; 32768 elsewhere), from which
 * every outgoing connection takes its local port.
 */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0])
    return Number.isInteger(low) && low > FREE_PORTS_FROM ? low : 32_768
  } catch {
    return 32_768
  }
}
/** Where freePort looks: above the stack's own defaults (3001–9199), below the ephemeral range. */
const FREE_PORTS_FROM = 20_000
/** Ports this process has handed out: never twice, as a stack asks for eight before it binds any. */
const handedOut = new Set<number>()

/**
 * A port nothing listens on right now, for a service about to bind it (tests start many stacks on one
 * machine). Chosen below the ephemeral range: a port from that range (what listening on port 0 gives)
 * can be taken by any outgoing connection between the check and the bind — a stack seeding its data
 * makes thousands — which made a start fail with "Address already in use" now and then.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const high = ephemeralLow()
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = FREE_PORTS_FROM + Math.floor(Math.random() * (high - FREE_PORTS_FROM))
    if (handedOut.has(port)) continue
    if (await isPortFree(port, host)) {
      handedOut.add(port)
      return port
    }
  }
  return anyFreePort(host)
}

/** A port the OS picks (of the ephemeral range): freePort's fallback when it finds none below it. */
function anyFreePort(host: string): Promise<number> {
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
