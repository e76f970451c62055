import '../../test/setup.ts'
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router-dom'
import { afterEach, expect, test, vi } from 'vitest'
import { Header } from './header.tsx'

const twoLocations = [
  { id: 'a', name: 'Åbo', logoUrl: 'https://example.test/abo.png' },
  { id: 'b', name: 'Birkely', logoUrl: null },
]

afterEach(() => {
  vi.restoreAllMocks()
})

function renderHeader(props: Partial<Parameters<typeof Header>[0]> = {}) {
  const onLogout = vi.fn(async () => {})
  const onLogoutEverywhere = vi.fn()
  const onSelectLocation = vi.fn()
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <>
            <Header
              name="Anna Hansen"
              isAdmin={false}
              locations={twoLocations}
              activeLocationId="a"
              onSelectLocation={onSelectLocation}
              onLogout={onLogout}
              onLogoutEverywhere={onLogoutEverywhere}
              {...props}
            />
            <main>
              <button type="button">Sidens indhold</button>
            </main>
          </>
        ),
      },
    ],
    { initialEntries: ['/daily'] },
  )
  render(<RouterProvider router={router} />)
  return { router, onLogout, onLogoutEverywhere, onSelectLocation }
}

test('the header links the logo to /daily and shows the three nav links with their labels', () => {
  renderHeader()
  expect(screen.getByRole('link', { name: 'Bosted – gå til Dagsoversigt' })).toHaveAttribute('href', '/daily')
  const nav = screen.getByRole('navigation', { name: 'Hovedmenu' })
  const links = Array.from(nav.querySelectorAll('a')).map((a) => [a.textContent, a.getAttribute('href')])
  expect(links).toEqual([
    ['Dagsoversigt', '/daily'],
    ['Dagbøger', '/notes'],
    ['Statistik', '/statistics'],
  ])
})

test("the header shows the active location's logo and a switcher for staff with several locations", () => {
  const { onSelectLocation } = renderHeader()
  expect(screen.getByRole('img', { name: 'Logo for Åbo' })).toHaveAttribute('src', 'https://example.test/abo.png')
  fireEvent.change(screen.getByRole('combobox', { name: 'Lokation' }), { target: { value: 'b' } })
  expect(onSelectLocation).toHaveBeenCalledWith('b')
})

test('a location without a logo shows none, and one location needs no switcher', () => {
  renderHeader({ locations: [twoLocations[1]!], activeLocationId: 'b' })
  expect(screen.queryByRole('img')).toBeNull()
  expect(screen.queryByRole('combobox')).toBeNull()
  expect(screen.getByText('Birkely')).toBeInTheDocument()
})

test('the user menu shows Indstillinger, Log ud and Log ud på alle enheder, and Admin only to admins', async () => {
  const user = userEvent.setup()
  renderHeader()
  await user.click(screen.getByRole('button', { name: /Anna Hansen/ }))
  expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
    'Indstillinger',
    'Skift adgangskode',
    'Log ud',
    'Log ud på alle enheder',
  ])
  cleanup()
  renderHeader({ isAdmin: true })
  await user.click(screen.getByRole('button', { name: /Anna Hansen/ }))
  expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
    'Indstillinger',
    'Admin',
    'Skift adgangskode',
    'Log ud',
    'Log ud på alle enheder',
  ])
  expect(screen.getByRole('menuitem', { name: 'Admin' })).toHaveAttribute('href', '/admin')
})

test('Indstillinger leads to /settings/persons', async () => {
  const user = userEvent.setup()
  const { router } = renderHeader()
  await user.click(screen.getByRole('button', { name: /Anna Hansen/ }))
  await user.click(screen.getByRole('menuitem', { name: 'Indstillinger' }))
  expect(router.state.location.pathname).toBe('/settings/persons')
  expect(screen.getByRole('button', { name: /Anna Hansen/ })).toHaveAttribute('aria-expanded', 'false')
})

test('the user menu works with the keyboard: arrows move, Escape closes and returns focus', async () => {
  const user = userEvent.setup()
  renderHeader({ isAdmin: true })
  const button = screen.getByRole('button', { name: /Anna Hansen/ })
  button.focus()
  await user.keyboard('{ArrowDown}')
  expect(button).toHaveAttribute('aria-expanded', 'true')
  expect(screen.getByRole('menuitem', { name: 'Indstillinger' })).toHaveFocus()
  await user.keyboard('{ArrowDown}')
  expect(screen.getByRole('menuitem', { name: 'Admin' })).toHaveFocus()
  await user.keyboard('{ArrowDown}')
  expect(screen.getByRole('menuitem', { name: 'Skift adgangskode' })).toHaveFocus()
  await user.keyboard('{ArrowDown}')
  expect(screen.getByRole('menuitem', { name: 'Log ud' })).toHaveFocus()
  await user.keyboard('{ArrowDown}{ArrowDown}')
  expect(screen.getByRole('menuitem', { name: 'Indstillinger' })).toHaveFocus()
  await user.keyboard('{ArrowUp}')
  expect(screen.getByRole('menuitem', { name: 'Log ud på alle enheder' })).toHaveFocus()
  await user.keyboard('{Home}')
  expect(screen.getByRole('menuitem', { name: 'Indstillinger' })).toHaveFocus()
  await user.keyboard('{End}')
  expect(screen.getByRole('menuitem', { name: 'Log ud på alle enheder' })).toHaveFocus()
  await user.keyboard('{Escape}')
  expect(button).toHaveAttribute('aria-expanded', 'false')
  expect(button).toHaveFocus()
  await user.keyboard('{ArrowUp}')
  expect(screen.getByRole('menuitem', { name: 'Log ud på alle enheder' })).toHaveFocus()
})

test('Log ud calls the logout; Log ud på alle enheder asks for it (the shell confirms) and not the logout', async () => {
  const user = userEvent.setup()
  const { onLogout, onLogoutEverywhere } = renderHeader()
  await user.click(screen.getByRole('button', { name: /Anna Hansen/ }))
  await user.click(screen.getByRole('menuitem', { name: 'Log ud' }))
  expect(onLogout).toHaveBeenCalledTimes(1)
  expect(onLogoutEverywhere).not.toHaveBeenCalled()
  await user.click(screen.getByRole('button', { name: /Anna Hansen/ }))
  await user.click(screen.getByRole('menuitem', { name: 'Log ud på alle enheder' }))
  expect(onLogoutEverywhere).toHaveBeenCalledTimes(1)
  expect(onLogout).toHaveBeenCalledTimes(1)
  expect(screen.getByRole('button', { name: /Anna Hansen/ })).toHaveAttribute('aria-expanded', 'false')
})

test('the background panel slides in only once the page is scrolled more than 48 px', () => {
  renderHeader()
  const panel = screen.getByTestId('header-panel')
  expect(panel).toHaveAttribute('data-visible', 'false')
  const scrollTo = (y: number) =>
    act(() => {
      Object.defineProperty(window, 'scrollY', { value: y, configurable: true })
      window.dispatchEvent(new Event('scroll'))
    })
  scrollTo(48)
  expect(panel).toHaveAttribute('data-visible', 'false')
  scrollTo(49)
  expect(panel).toHaveAttribute('data-visible', 'true')
  scrollTo(0)
  expect(panel).toHaveAttribute('data-visible', 'false')
})

test('the scroll position is read as the header renders, not again as it mounts (no forced layout)', () => {
  let reads = 0
  const scrollY = Object.getOwnPropertyDescriptor(window, 'scrollY')
  Object.defineProperty(window, 'scrollY', {
    get: () => {
      reads += 1
      return 100
    },
    configurable: true,
  })
  try {
    renderHeader()
    // Read once by the render: the panel shows for a page already scrolled.
    expect(screen.getByTestId('header-panel')).toHaveAttribute('data-visible', 'true')
    expect(reads).toBe(1)
  } finally {
    if (scrollY) Object.defineProperty(window, 'scrollY', scrollY)
  }
})

/** A tablet or phone: the header's media query for the narrow layout matches. */
function useNarrowScreen() {
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) =>
      ({
        matches: query.includes('max-width'),
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }) as unknown as MediaQueryList,
  )
}

const menuButton = () => screen.getByRole('button', { name: /^Menu/ })

test('on a narrow screen the nav links and the user entries sit behind one menu button', async () => {
  useNarrowScreen()
  const user = userEvent.setup()
  renderHeader({ isAdmin: true })
  expect(screen.queryByRole('navigation', { name: 'Hovedmenu' })).toBeNull()
  expect(screen.queryByRole('link', { name: 'Indstillinger' })).toBeNull()
  expect(menuButton()).toHaveAccessibleName('Menu Anna Hansen')
  expect(menuButton()).toHaveAttribute('aria-expanded', 'false')
  // The active location stays in the bar.
  expect(screen.getByRole('combobox', { name: 'Lokation' })).toBeVisible()
  expect(screen.getByRole('img', { name: 'Logo for Åbo' })).toBeVisible()

  await user.click(menuButton())
  expect(menuButton()).toHaveAttribute('aria-expanded', 'true')
  const panel = document.getElementById(menuButton().getAttribute('aria-controls')!)!
  expect(panel).toBeVisible()
  const nav = screen.getByRole('navigation', { name: 'Hovedmenu' })
  expect(panel).toContainElement(nav)
  expect(Array.from(nav.querySelectorAll('a')).map((a) => a.textContent)).toEqual([
    'Dagsoversigt',
    'Dagbøger',
    'Statistik',
  ])
  const entries = screen.getByRole('list', { name: 'Brugermenu for Anna Hansen' })
  expect(Array.from(entries.querySelectorAll('a, button')).map((entry) => entry.textContent)).toEqual([
    'Indstillinger',
    'Admin',
    'Skift adgangskode',
    'Log ud',
    'Log ud på alle enheder',
  ])
})

test('on a narrow screen Admin is offered to admins only', async () => {
  useNarrowScreen()
  const user = userEvent.setup()
  renderHeader()
  await user.click(menuButton())
  expect(screen.getByRole('link', { name: 'Indstillinger' })).toBeVisible()
  expect(screen.queryByRole('link', { name: 'Admin' })).toBeNull()
})

test('the narrow menu moves focus to its first link; Escape closes it and returns focus to the button', async () => {
  useNarrowScreen()
  const user = userEvent.setup()
  renderHeader()
  menuButton().focus()
  await user.keyboard('{Enter}')
  expect(screen.getByRole('link', { name: 'Dagsoversigt' })).toHaveFocus()
  await user.tab()
  expect(screen.getByRole('link', { name: 'Dagbøger' })).toHaveFocus()
  await user.keyboard('{Escape}')
  expect(menuButton()).toHaveAttribute('aria-expanded', 'false')
  expect(menuButton()).toHaveFocus()
})

test('tabbing past the last entry of the narrow menu closes it', async () => {
  useNarrowScreen()
  const user = userEvent.setup()
  renderHeader()
  await user.click(menuButton())
  screen.getByRole('button', { name: 'Log ud på alle enheder' }).focus()
  await user.tab()
  expect(screen.getByRole('button', { name: 'Sidens indhold' })).toHaveFocus()
  expect(menuButton()).toHaveAttribute('aria-expanded', 'false')
})

test('a click outside closes the narrow menu', async () => {
  useNarrowScreen()
  const user = userEvent.setup()
  renderHeader()
  await user.click(menuButton())
  await user.click(screen.getByRole('img', { name: 'Logo for Åbo' }))
  expect(menuButton()).toHaveAttribute('aria-expanded', 'false')
})

test('choosing a link in the narrow menu goes there and closes the menu', async () => {
  useNarrowScreen()
  const user = userEvent.setup()
  const { router } = renderHeader()
  await user.click(menuButton())
  await user.click(screen.getByRole('link', { name: 'Indstillinger' }))
  expect(router.state.location.pathname).toBe('/settings/persons')
  expect(menuButton()).toHaveAttribute('aria-expanded', 'false')
  await user.click(menuButton())
  await user.click(screen.getByRole('link', { name: 'Statistik' }))
  expect(router.state.location.pathname).toBe('/statistics')
  expect(menuButton()).toHaveAttribute('aria-expanded', 'false')
})

test('Log ud and Log ud på alle enheder in the narrow menu', async () => {
  useNarrowScreen()
  const user = userEvent.setup()
  const { onLogout, onLogoutEverywhere } = renderHeader()
  await user.click(menuButton())
  await user.click(screen.getByRole('button', { name: 'Log ud' }))
  expect(onLogout).toHaveBeenCalledTimes(1)
  await user.click(menuButton())
  await user.click(screen.getByRole('button', { name: 'Log ud på alle enheder' }))
  expect(onLogoutEverywhere).toHaveBeenCalledTimes(1)
  expect(menuButton()).toHaveAttribute('aria-expanded', 'false')
})

test('a long location name is kept whole in the text and its title while the bar cuts it', () => {
  const long = 'Bostedet Solsikken – afdeling for unge voksne i Nordjylland'
  renderHeader({ locations: [{ id: 'l', name: long, logoUrl: null }], activeLocationId: 'l' })
  const name = screen.getByText(long)
  expect(name).toHaveClass('location__name')
  expect(name).toHaveAttribute('title', long)
})
