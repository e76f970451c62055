import '../../test/setup.ts'
import { act, render, screen } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { setPrefetcher } from '../prefetch.ts'
import { prefetchRoute } from '../router.tsx'
import { PrefetchLink } from './prefetch-link.tsx'

/** Which page modules have been imported (each factory runs on the module's first import). */
const { imported, page } = vi.hoisted(() => {
  const imported: string[] = []
  const page = (name: string) => () => {
    imported.push(name)
    // biome-ignore lint/correctness/noComponentHookFactories: a stand-in page module, made once per module
    return { Component: () => null }
  }
  return { imported, page }
})
vi.mock('../routes/notes.tsx', page('notes'))
vi.mock('../routes/daily.tsx', page('daily'))
vi.mock('../routes/statistics/layout.tsx', page('statistics/layout'))
vi.mock('../routes/statistics/statistics.tsx', page('statistics/statistics'))
vi.mock('../routes/settings/users.tsx', page('settings/users'))
vi.mock('../routes/admin/index.tsx', page('admin/index'))

/** An IntersectionObserver the test drives: `show()` reports its links as scrolled into view. */
class StubObserver {
  static all: StubObserver[] = []
  readonly targets = new Set<Element>()
  constructor(private readonly callback: IntersectionObserverCallback) {
    StubObserver.all.push(this)
  }
  observe(target: Element) {
    this.targets.add(target)
  }
  unobserve(target: Element) {
    this.targets.delete(target)
  }
  disconnect() {
    this.targets.clear()
  }
  takeRecords() {
    return []
  }
  report(isIntersecting: boolean) {
    const entries = [...this.targets].map((target) => ({ target, isIntersecting }) as IntersectionObserverEntry)
    if (entries.length > 0) act(() => this.callback(entries, this as unknown as IntersectionObserver))
  }
}
const show = () => {
  for (const observer of StubObserver.all) observer.report(true)
}

const prefetched: string[] = []

beforeEach(() => {
  StubObserver.all = []
  prefetched.length = 0
  vi.stubGlobal('IntersectionObserver', StubObserver)
  setPrefetcher((path) => {
    prefetched.push(path)
    prefetchRoute(path)
  })
})
afterEach(() => {
  vi.unstubAllGlobals()
})

/** Lets the on-demand imports started by a prefetch settle. */
const settle = () => act(async () => await new Promise((resolve) => setTimeout(resolve, 20)))

function renderLinks(...paths: string[]) {
  return render(
    <MemoryRouter>
      {paths.map((path, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the same path may appear twice on purpose
        <PrefetchLink key={index} to={path}>
          {`${path} #${index}`}
        </PrefetchLink>
      ))}
    </MemoryRouter>,
  )
}

test("a link does not fetch its page's code before it is visible", async () => {
  renderLinks('/notes')
  expect(StubObserver.all[0]?.targets.has(screen.getByRole('link', { name: '/notes #0' }))).toBe(true)
  StubObserver.all[0]?.report(false)
  await settle()
  expect(prefetched).toEqual([])
  expect(imported).not.toContain('notes')
})

test("a link fetches its page's code once it scrolls into view", async () => {
  renderLinks('/statistics')
  expect(imported).not.toContain('statistics/layout')
  show()
  await vi.waitFor(() =>
    expect(imported).toEqual(expect.arrayContaining(['statistics/layout', 'statistics/statistics'])),
  )
  expect(prefetched).toEqual(['/statistics'])
})

test('a page is fetched only once: the link stops watching, and other links to it fetch nothing more', async () => {
  renderLinks('/daily', '/daily')
  show()
  show()
  await settle()
  expect(prefetched).toEqual(['/daily'])
  expect(imported.filter((name) => name === 'daily')).toEqual(['daily'])
  expect(StubObserver.all.every((observer) => observer.targets.size === 0)).toBe(true)
})

test('a link that goes away before it is seen never fetches', async () => {
  const { unmount } = renderLinks('/admin')
  unmount()
  show()
  await settle()
  expect(prefetched).toEqual([])
  expect(imported).not.toContain('admin/index')
})

test('without IntersectionObserver (old browsers) the page is fetched at once', async () => {
  vi.stubGlobal('IntersectionObserver', undefined)
  renderLinks('/settings/users')
  await vi.waitFor(() => expect(imported).toContain('settings/users'))
  expect(prefetched).toEqual(['/settings/users'])
})
