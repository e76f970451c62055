/// <reference lib="dom" />
import { ACCOUNTS, CHOSEN_PASSWORD, expect, failedRequest, seriousA11yViolations, signIn, test } from './fixtures.ts'

// Issue 32 point 4: every field says in Danish what to fix, where the field is; axe finds nothing
// serious in the states with the new messages (it is injected as a script tag, which the app's CSP
// would block).
test.use({ bypassCSP: true })

const EMAIL_IN_USE = 'Emailen er allerede i brug. Brug en anden email.'
const ENGLISH = /Invalid input|expected|received/

test('"Gem" in the register dialog without an answer says "Vælg et svar", not zod\'s English', async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  await page
    .getByRole('button', { name: /^Registrer for / })
    .first()
    .click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByRole('radio').first()).toBeVisible()
  await dialog.getByRole('button', { name: 'Gem' }).click()
  await expect(dialog.getByText('Vælg et svar')).toBeVisible()
  await expect(dialog.getByText(ENGLISH)).toHaveCount(0)
  expect(await seriousA11yViolations(page)).toEqual([])
})

test('creating a person with an e-mail in use puts the message at the e-mail field on step 1', async ({
  page,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(failedRequest(409, '/api/user/create'))
  await signIn(page, ACCOUNTS.superuser.email)
  await page.goto('/create/person/general')
  await page.getByLabel('Fornavn').fill('Astrid')
  await page.getByLabel('Email').fill(ACCOUNTS.employee.email)
  await page.getByLabel('Adgangskode').fill(CHOSEN_PASSWORD)
  await page.getByRole('button', { name: 'Næste' }).click()
  await expect(page).toHaveURL(/\/create\/person\/answers$/)
  await page.getByRole('button', { name: 'Næste' }).click()
  await expect(page).toHaveURL(/\/create\/person\/settings$/)
  await page.getByRole('button', { name: 'Opret borger' }).click()

  await expect(page).toHaveURL(/\/create\/person\/general$/)
  const email = page.getByLabel('Email')
  await expect(page.getByText(EMAIL_IN_USE)).toBeVisible()
  await expect(email).toHaveAttribute('aria-invalid', 'true')
  await expect(email).toBeFocused()
  expect(await seriousA11yViolations(page)).toEqual([])
  // Fixing the e-mail clears the message.
  await email.fill('astrid.ny@e2e.dk')
  await expect(page.getByText(EMAIL_IN_USE)).toHaveCount(0)
})

test('creating a user with an e-mail in use puts the message at the e-mail field', async ({
  page,
  allowConsoleErrors,
}) => {
  allowConsoleErrors(failedRequest(409, '/api/user/create'))
  await signIn(page, ACCOUNTS.superuser.email)
  await page.goto('/create/user/general')
  await page.getByLabel('Fornavn').fill('Mette')
  await page.getByLabel('Email').fill(ACCOUNTS.admin.email)
  await page.getByLabel('Adgangskode').fill(CHOSEN_PASSWORD)
  await page.getByRole('button', { name: 'Opret bruger' }).click()
  await expect(page.getByText(EMAIL_IN_USE)).toBeVisible()
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true')
  await expect(page).toHaveURL(/\/create\/user/)
})

test('names and other text fields show their limit and stop there', async ({ page }) => {
  await signIn(page, ACCOUNTS.superuser.email)
  await page.goto('/create/person/general')
  const firstName = page.getByLabel('Fornavn')
  await expect(firstName).toHaveAttribute('maxlength', '100')
  await firstName.fill('A'.repeat(300))
  await expect(firstName).toHaveValue('A'.repeat(100))
  await expect(page.getByText('Højst 100 tegn').first()).toBeVisible()
  await expect(page.getByLabel('Efternavn')).toHaveAttribute('maxlength', '100')
  await expect(page.getByLabel('Email')).toHaveAttribute('maxlength', '254')

  await page.goto('/create/user/general')
  await expect(page.getByLabel('Stillingsbetegnelse')).toHaveAttribute('maxlength', '100')
})

test('an empty diary form shows all its errors at once', async ({ page }) => {
  await signIn(page, ACCOUNTS.employee.email)
  await page.goto('/notes')
  const form = page.getByRole('form', { name: 'Skriv i dagbogen' })
  await form.getByRole('button', { name: 'Gem notat' }).click()
  await expect(form.getByText('Vælg en borger')).toBeVisible()
  await expect(form.getByText('Skriv et notat')).toBeVisible()
  await expect(form.getByRole('alert')).toHaveCount(2)
  expect(await seriousA11yViolations(page)).toEqual([])
})
