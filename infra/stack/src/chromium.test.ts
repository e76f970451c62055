import { afterEach, expect, test } from 'vitest'
import { chromiumLaunchOptions, withoutWindowUi } from './chromium.ts'

// Playwright's list as a runner hands it to its workers: no probe launch in these tests.
const INHERITED = 'CHROMIUM_PLAYWRIGHT_DISABLED_FEATURES'
const saved = process.env[INHERITED]
afterEach(() => {
  if (saved === undefined) delete process.env[INHERITED]
  else process.env[INHERITED] = saved
})

test("adds the window's web UI to Playwright's own --disable-features list, in one switch", async () => {
  process.env[INHERITED] = 'PaintHolding,MediaRouter'
  expect(await withoutWindowUi(['--no-sandbox'])).toEqual([
    '--no-sandbox',
    '--disable-features=PaintHolding,MediaRouter,WebUIOmniboxPopup,WebUIOmniboxAimPopup',
  ])
})

test("keeps a caller's own --disable-features in that one switch, each feature once", async () => {
  process.env[INHERITED] = 'PaintHolding'
  expect(await withoutWindowUi(['--disable-features=Translate,PaintHolding', '--disable-gpu'])).toEqual([
    '--disable-gpu',
    '--disable-features=PaintHolding,Translate,WebUIOmniboxPopup,WebUIOmniboxAimPopup',
  ])
})

test("leaves Playwright's own --disable-features out, as ours carries its list", async () => {
  process.env[INHERITED] = 'PaintHolding,MediaRouter'
  const options = await chromiumLaunchOptions(['--no-sandbox'])
  expect(options.ignoreDefaultArgs).toEqual(['--disable-features=PaintHolding,MediaRouter'])
  expect(options.args.filter((arg) => arg.startsWith('--disable-features='))).toHaveLength(1)
})

test("leaves the arguments as they are when the window's web UI is wanted", async () => {
  process.env[INHERITED] = 'PaintHolding'
  const options = await chromiumLaunchOptions(['--no-sandbox'], { windowUi: true })
  expect(options).toEqual({ executablePath: expect.any(String), args: ['--no-sandbox'] })
})
