import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const WEB = join(dirname(fileURLToPath(import.meta.url)), '..')

test("the page icon is a 32 px PNG, not the SVG: Chromium builds an SVG document on the page's main thread for an SVG icon at every load (issue 34: 12 ms on the tablet profile, in the middle of the start)", () => {
  const html = readFileSync(join(WEB, 'index.html'), 'utf8')
  expect([...html.matchAll(/<link rel="icon"[^>]*>/g)].map(([link]) => link)).toEqual([
    '<link rel="icon" href="/icons/icon-32.png" sizes="32x32" type="image/png" />',
  ])
  const png = readFileSync(join(WEB, 'public/icons/icon-32.png'))
  expect(png.subarray(1, 4).toString('latin1')).toBe('PNG')
  // IHDR: width and height, big-endian, at bytes 16 and 20.
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([32, 32])
})
