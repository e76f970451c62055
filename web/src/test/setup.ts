// Imported first by every component test: jest-dom matchers, and a clean DOM after each test
// (vitest runs without globals, so Testing Library cannot register its own cleanup).
import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterEach } from 'vitest'

afterEach(() => {
  cleanup()
  localStorage.clear()
  sessionStorage.clear()
})
