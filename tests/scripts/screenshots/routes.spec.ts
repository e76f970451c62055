/// <reference lib="dom" />
import { fileURLToPath } from 'node:url'
import {
  ACCOUNTS,
  expect,
  isNarrow,
  menuButton,
  openUserMenu,
  PROTECTED_PAGES,
  signIn,
  test,
} from '../../e2e/fixtures.ts'

const OUT = fileURLToPath(new URL('../../../test-results/screenshots/', import.meta.url))

/** 'person/demo-borger01/settings' → 'person-demo-borger01-settings'; '/' → 'root'. */
const fileName = (path: string) => path.replace(/^\/|\/$/g, '').replaceAll('/', '-') || 'root'

test('screenshots of every route', async ({ page }, testInfo) => {
  test.setTimeout(180_000)
  const shoot = async (name: string) => {
    await page.waitForFunction(() => Array.from(document.images).every((image) => image.complete))
    await page.screenshot({ path: `${OUT}${testInfo.project.name}/${name}.png`, animations: 'disabled' })
  }

  await page.goto('/login')
  await expect(page.getByRole('button', { name: 'Log ind' })).toBeEnabled()
  await shoot('login')

  // The admin: every route reachable, three locations in the switcher, the longest user menu.
  await signIn(page, ACCOUNTS.admin.email)
  for (const [path, heading] of PROTECTED_PAGES) {
    await page.goto(path)
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible()
    await shoot(fileName(path))
  }

  await page.goto('/daily')
  await expect(page.getByRole('heading', { level: 1, name: 'Dagsoversigt' })).toBeVisible()
  await openUserMenu(page, ACCOUNTS.admin.name)
  await shoot(isNarrow(page) ? 'menu-open' : 'user-menu-open')

  if (testInfo.project.name === 'phone') {
    // The narrowest phone the header is made for.
    await page.setViewportSize({ width: 320, height: 640 })
    await shoot('menu-open-320')
    await menuButton(page).click()
    await shoot('daily-320')
  }
})
