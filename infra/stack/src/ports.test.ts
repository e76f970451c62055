import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { expect, test } from 'vitest'
import { freePort } from './ports.ts'

const ephemeralLow = () => Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0])

test("free ports come from below the kernel's ephemeral range, where no outgoing connection can take them", async () => {
  const ports: number[] = []
  for (let index = 0; index < 50; index += 1) ports.push(await freePort())
  for (const port of ports) {
    expect(port).toBeGreaterThanOrEqual(20_000)
    expect(port).toBeLessThan(ephemeralLow())
  }
  // A stack asks for eight before it binds one: never the same port twice.
  expect(new Set(ports).size).toBe(ports.length)
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(ports[0], '127.0.0.1', resolve)
  })
  server.close()
})
