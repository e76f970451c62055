/// <reference lib="dom" />
import type { Page } from '@playwright/test'
import { type App, deleteApp, initializeApp } from 'firebase-admin/app'
import { FieldValue, type Firestore, initializeFirestore } from 'firebase-admin/firestore'
import { ACCOUNTS, expect, signIn, test } from './fixtures.ts'

// Issue 32 point 2: whatever staff or persons type — a word of 1,200 characters, a long link — wraps
// inside the screen; no page grows wider than the viewport and every row keeps its buttons on it.

const LOCATION = 'wrap-lab'
const PERSON = 'wrap-person'
const ANSWER = 'wrap-answer'
const WORD = 'Ø'.repeat(600) + 'x'.repeat(600)
const LINK = `https://eksempel.dk/${'meget-lang-sti/'.repeat(6)}side?fra=dagsoversigten&til=borgeren&id=1234567890`
const TEXT = `Se ${LINK} og ${WORD} slut`
const WIDTHS = [320, 390, 768]

const today = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Copenhagen' }).format(new Date())

/** Runs a step with firebase-admin beside the app (the emulators need no Google credentials). */
async function withDb<T>(step: (db: Firestore) => Promise<T>): Promise<T> {
  const app: App = initializeApp(
    { projectId: process.env.FIREBASE_PROJECT_ID ?? 'demo-bosted' },
    `long-text-${Date.now()}-${Math.random()}`,
  )
  try {
    const db = initializeFirestore(app, { preferRest: true })
    db.settings({
      auth: { getRequestHeaders: async () => ({}), fetch: (url: string, init: RequestInit) => fetch(url, init) },
    } as never)
    return await step(db)
  } finally {
    await deleteApp(app)
  }
}

async function seedLongTexts(): Promise<void> {
  await withDb(async (db) => {
    const now = new Date().toISOString()
    const day = today()
    await db.doc(`locations/${LOCATION}`).set({
      id: LOCATION,
      createdAt: now,
      name: `Bo${WORD}`,
      logoUrl: null,
      persons: [PERSON],
      settings: {
        answerOptions: [],
        subscription: null,
        notifications: { reminderTime: '20:00' },
        features: { answers: true, freeText: true, dictation: false, cloudDictation: false },
        subscriptionHistory: [],
      },
    })
    await db.doc(`locations/${LOCATION}/answers/${ANSWER}-loc`).set({
      id: `${ANSWER}-loc`,
      text: `Stedets ${WORD}`,
      value: 2,
      hidden: false,
      entity: 'location',
      createdAt: now,
    })
    await db.doc(`persons/${PERSON}`).set({
      id: PERSON,
      firstName: WORD,
      lastName: LINK,
      createdAt: '2026-01-01T09:00:00.000Z',
      avatarUrl: null,
      contact: { email: null, phone: null },
      settings: {
        answerOptions: [ANSWER],
        disabled: false,
        includePlaceAnswers: true,
        features: { all: false, freeText: true, speechToText: false, answers: true },
        notifications: null,
      },
      locale: 'da',
      locationId: LOCATION,
    })
    await db.doc(`persons/${PERSON}/answers/${ANSWER}`).set({
      id: ANSWER,
      text: `Svar ${WORD}`,
      value: 3,
      hidden: false,
      entity: 'person',
      createdAt: now,
    })
    await db.doc(`persons/${PERSON}/registrations/${day}-1`).set({
      personId: PERSON,
      locationId: LOCATION,
      answerId: ANSWER,
      text: `Svar ${WORD}`,
      value: 3,
      entity: 'person',
      comment: TEXT,
      day,
      createdAt: now,
      createdBy: 'demo-admin',
      createdByName: 'Birgitte Holm',
    })
    await db.doc(`persons/${PERSON}/notes/${day}-1`).set({
      personId: PERSON,
      locationId: LOCATION,
      text: TEXT,
      day,
      source: 'keyboard',
      createdAt: now,
      createdBy: 'demo-admin',
      authorName: 'Birgitte Holm',
    })
    await db.doc('users/demo-admin').update({ locations: FieldValue.arrayUnion(LOCATION) })
  })
}

async function removeLongTexts(): Promise<void> {
  await withDb(async (db) => {
    await db.doc('users/demo-admin').update({ locations: FieldValue.arrayRemove(LOCATION) })
    await db.recursiveDelete(db.doc(`persons/${PERSON}`))
    await db.recursiveDelete(db.doc(`locations/${LOCATION}`))
  })
}

/** Resizes the page and waits for the header's switch (wide ↔ compact) to finish its transitions. */
/** A new width, once the app has laid itself out for it (the header folds in JS, then animates). */
async function resize(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 })
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  )
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'))
}

/** What sticks out at this width: the page's sideways overflow and any visible control past the right edge. */
async function outside(page: Page, width: number): Promise<string[]> {
  return page.evaluate((width) => {
    const found: string[] = []
    const scroll = document.documentElement.scrollWidth
    if (scroll > width) {
      // Name the innermost element that reaches past the edge, so a failure says where to look.
      const past = [...document.querySelectorAll('body *')].filter(
        (element) => element.getBoundingClientRect().right > width + 0.5 && element.children.length === 0,
      )
      const first = past[0]
      const parent = first?.parentElement
      const where =
        first === undefined
          ? ''
          : ` (${first.tagName.toLowerCase()}.${first.className || '-'} in ${parent?.tagName.toLowerCase()}.${parent?.className || '-'})`
      found.push(`document is ${scroll} px wide${where}`)
    }
    for (const element of document.querySelectorAll('main button, main a, main select, main input')) {
      if (element.getClientRects().length === 0) continue
      // Controls inside a sideways-scrolling table region are reached by scrolling it.
      if (element.closest('.table-scroll') !== null) continue
      const box = element.getBoundingClientRect()
      if (box.right > width + 0.5 || box.left < -0.5) {
        const name = (element.textContent ?? '').trim().slice(0, 20) || element.outerHTML.slice(0, 40)
        found.push(`${element.tagName.toLowerCase()} "${name}" spans ${Math.round(box.left)}–${Math.round(box.right)}`)
      }
    }
    // A table's row header (a person's or a location's name) wraps within the screen too.
    for (const cell of document.querySelectorAll('main th[scope="row"]')) {
      const box = cell.getBoundingClientRect()
      if (box.width > width)
        found.push(`row header "${(cell.textContent ?? '').slice(0, 12)}…" is ${Math.round(box.width)} px wide`)
    }
    return found
  }, width)
}

const PAGES: [path: string, heading: string][] = [
  ['/daily', 'Dagsoversigt'],
  ['/notes', 'Dagbøger'],
  ['/admin', 'Administration'],
  [`/admin/location/${LOCATION}/general`, 'Lokation'],
  ['/settings/persons', 'Indstillinger'],
  ['/settings/answers', 'Indstillinger'],
  [`/person/${PERSON}/daily`, 'Borger'],
  [`/person/${PERSON}/notes`, 'Borger'],
  [`/person/${PERSON}/settings/answers`, 'Borger'],
  [`/admin/person/${PERSON}/settings`, 'Borgerindstillinger'],
]

test.describe('user text wraps', () => {
  test.beforeAll(seedLongTexts)
  test.afterAll(removeLongTexts)

  test('a 1,200-character word and a long link in names, comments, notes, answers and a location name stay on screen at 320, 390 and 768 px', {
    tag: ['@tablet', '@shell'],
  }, async ({ page }) => {
    test.setTimeout(180_000)
    await page.addInitScript((id) => window.localStorage.setItem('activeLocationId', id), LOCATION)
    await signIn(page, ACCOUNTS.admin.email)
    const wide: string[] = []
    for (const [path, heading] of PAGES) {
      await page.setViewportSize({ width: 1280, height: 900 })
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1, name: heading }), path).toBeVisible()
      if (path.endsWith('daily') || path.endsWith('notes')) {
        await expect(page.getByText(/^Se https:\/\/eksempel\.dk/).first(), path).toBeVisible()
      }
      for (const width of WIDTHS) {
        await resize(page, width)
        for (const problem of await outside(page, width)) wide.push(`${path} at ${width} px: ${problem}`)
      }
    }
    // The person's row on Dagsoversigt keeps "Registrer", "Ret" and "Slet" on the screen.
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto('/daily')
    await expect(page.getByText(/^Se https:\/\/eksempel\.dk/).first()).toBeVisible()
    const row = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: new RegExp(`^${WORD}`) }) })
    for (const width of WIDTHS) {
      await resize(page, width)
      for (const name of ['Registrer', 'Ret', 'Slet']) {
        const box = await row
          .getByRole('button', { name: new RegExp(`^${name}\\b`) })
          .first()
          .boundingBox({ timeout: 10_000 })
        if (box === null || box.x + box.width > width + 0.5) wide.push(`/daily at ${width} px: "${name}" is off screen`)
      }
    }
    // The register dialog lists the answer options (one of them the long word) within the screen.
    await page.setViewportSize({ width: 320, height: 900 })
    await row.getByRole('button', { name: /^Registrer/ }).click()
    const dialog = page.getByRole('dialog')
    await expect(dialog.getByText(/^Svar ØØØ/).first()).toBeVisible()
    const box = await dialog.boundingBox()
    if (box === null || box.x + box.width > 320.5)
      wide.push(`register dialog at 320 px ends at ${box?.x}+${box?.width}`)
    const inside = await dialog.evaluate((element) => element.scrollWidth - element.clientWidth)
    if (inside > 0) wide.push(`register dialog scrolls ${inside} px sideways`)
    expect(wide).toEqual([])
  })
})
