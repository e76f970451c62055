import { createConnection, createServer, type Server } from 'node:net'
import { describeSkips } from './target-skips.ts'

/**
 * A target the suite does not start itself (E2E_TARGET set: `compose` or `pilot`, run by
 * infra/docker/test-e2e-containers.ts in a container on the Compose network). Everything comes from
 * the environment, as natively from global-setup.ts: E2E_BASE_URL for the browser, and the backend's
 * privileged listeners for the suite's own setup (FIREBASE_AUTH_EMULATOR_HOST, FIRESTORE_EMULATOR_HOST,
 * FIREBASE_STORAGE_EMULATOR_HOST, FIREBASE_PROJECT_ID). A pilot's origin is https with its generated
 * certificate: the Node side trusts it through NODE_EXTRA_CA_CERTS, Chromium through E2E_TLS_SPKI
 * (playwright.config.ts). The journeys a target cannot run are listed in target-skips.ts.
 */
export const externalTarget = (): string | undefined => process.env.E2E_TARGET || undefined

const REQUIRED = ['E2E_BASE_URL', 'FIREBASE_PROJECT_ID', 'FIREBASE_AUTH_EMULATOR_HOST', 'FIRESTORE_EMULATOR_HOST']

/**
 * E2E_FORWARD: `localPort=host:port` pairs (whitespace-separated). Each is a TCP forward from this
 * container's loopback to a service on the Compose network, so that the browser reaches the app and
 * the emulators' public ports at the addresses /config.json names (localhost:<port>), exactly as a
 * browser on the host does.
 */
export function parseForwards(text: string): { port: number; host: string; targetPort: number }[] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((pair) => {
      const match = /^(\d+)=([^:\s]+):(\d+)$/.exec(pair)
      if (!match) throw new Error(`E2E_FORWARD: expected localPort=host:port, got ${pair}`)
      return { port: Number(match[1]), host: match[2] as string, targetPort: Number(match[3]) }
    })
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
}

async function forward(port: number, host: string, targetPort: number): Promise<Server[]> {
  const servers: Server[] = []
  for (const address of ['127.0.0.1', '::1']) {
    const server = createServer((socket) => {
      const upstream = createConnection({ host, port: targetPort })
      socket.pipe(upstream).pipe(socket)
      const close = () => {
        socket.destroy()
        upstream.destroy()
      }
      socket.on('error', close)
      upstream.on('error', close)
    })
    try {
      await listen(server, port, address)
      servers.push(server)
    } catch (error) {
      // A container without IPv6 loopback has no ::1; 127.0.0.1 must work.
      if (address === '127.0.0.1') throw error
    }
  }
  return servers
}

async function waitFor(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  let last = ''
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5000) })
      await response.arrayBuffer()
      if (response.ok) return
      last = `HTTP ${response.status}`
    } catch (error) {
      last = error instanceof Error ? error.message : String(error)
    }
    await new Promise((resolve) => setTimeout(resolve, 1000))
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s (${last})`)
}

/** Checks the environment, opens the forwards and waits for the app; returns what stops the forwards. */
export async function useExternalTarget(target: string): Promise<() => Promise<void>> {
  const missing = REQUIRED.filter((key) => !process.env[key])
  if (missing.length) throw new Error(`E2E_TARGET=${target} needs ${missing.join(', ')} in the environment`)
  const servers: Server[] = []
  for (const { port, host, targetPort } of parseForwards(process.env.E2E_FORWARD ?? '')) {
    servers.push(...(await forward(port, host, targetPort)))
  }
  const base = process.env.E2E_BASE_URL as string
  await waitFor(new URL('/config.json', base).href, 60_000)
  console.log(`e2e target ${target}: ${base} (admin listener ${process.env.FIRESTORE_EMULATOR_HOST})`)
  console.log(describeSkips(target))
  return async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
  }
}
