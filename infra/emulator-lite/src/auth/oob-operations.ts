import { AuthError, assert } from './errors.ts'
import type { OobCodes, OobRow } from './oob.ts'
import { type AuthContext, applyFields, type Body, checkPasswordLength, str, throttleKey } from './operations.ts'
import type { MailMessage } from './smtp.ts'
import { hashPassword } from './tokens.ts'

// The password-reset operations (accounts:sendOobCode, accounts:resetPassword) over the codes of
// oob.ts; apart from it so the code store does not import the operations that hold it (no cycle).

/** The Danish mail with the reset link (the product's language; the app's /reset-password page opens it). */
function resetMail(to: string, link: string): MailMessage {
  return {
    to,
    subject: 'Nulstil din adgangskode til Bosted',
    text: [
      'Hej',
      '',
      'Nogen (forhåbentlig dig) har bedt om at nulstille adgangskoden til din konto i Bosted.',
      'Åbn linket herunder for at vælge en ny adgangskode. Linket virker i en time og kun én gang:',
      '',
      link,
      '',
      'Har du ikke bedt om det, kan du se bort fra denne mail. Din adgangskode er ikke ændret.',
    ].join('\n'),
  }
}

function oobCodes(ctx: AuthContext): OobCodes {
  if (!ctx.oob) throw new AuthError('OPERATION_NOT_ALLOWED')
  return ctx.oob
}

/**
 * accounts:sendOobCode, PASSWORD_RESET only (docs/wire/auth.md#web-sdk-operations): a code for the account of `email`,
 * mailed with its link where a mailer is configured. `returnOobLink` (privileged callers only)
 * answers the code and link instead of sending them.
 */
export async function sendOobCode(ctx: AuthContext, body: Body) {
  const codes = oobCodes(ctx)
  const requestType = str(body, 'requestType')
  assert(requestType && requestType !== 'OOB_REQ_TYPE_UNSPECIFIED', 'MISSING_REQ_TYPE')
  const returnOobLink = body.returnOobLink === true
  if (returnOobLink) assert(ctx.privileged, 'INSUFFICIENT_PERMISSION')
  if (requestType !== 'PASSWORD_RESET') {
    throw new AuthError(
      `${requestType} is not implemented in emulator-lite's Auth.`,
      501,
      'NOT_IMPLEMENTED',
      'unimplemented',
    )
  }
  const emailIn = str(body, 'email')
  assert(emailIn, 'MISSING_EMAIL')
  const email = emailIn.toLowerCase()
  const user = ctx.store.getByEmail(ctx.project, email)
  const privacy = ctx.store.config(ctx.project).emailPrivacyConfig.enableImprovedEmailPrivacy
  if (!user && privacy) return { kind: 'identitytoolkit#GetOobConfirmationCodeResponse', email }
  assert(user?.email, 'EMAIL_NOT_FOUND')
  const listing = codes.create(ctx.project, { ...user, email: user.email }, requestType)
  if (returnOobLink) {
    return {
      kind: 'identitytoolkit#GetOobConfirmationCodeResponse',
      email,
      oobCode: listing.oobCode,
      oobLink: listing.oobLink,
    }
  }
  if (codes.sendsMail) {
    try {
      await codes.send(resetMail(user.email, listing.oobLink))
    } catch (error) {
      // The caller learns nothing of the relay; the operator reads why in the log.
      console.error(`emulator-lite: the password-reset mail could not be sent: ${(error as Error).message}`)
    }
  }
  return { kind: 'identitytoolkit#GetOobConfirmationCodeResponse', email }
}

/**
 * accounts:resetPassword: without `newPassword` it says whose code it is (the web's check of a link);
 * with it, uses the code up, sets the password, marks the email verified and ends every session and
 * every other code of the account.
 */
export async function resetPassword(ctx: AuthContext, body: Body) {
  const codes = oobCodes(ctx)
  const oobCode = str(body, 'oobCode')
  assert(oobCode, 'MISSING_OOB_CODE')
  const newPassword = str(body, 'newPassword')
  const answer = (row: OobRow) => ({
    kind: 'identitytoolkit#ResetPasswordResponse',
    requestType: row.request_type,
    email: row.email,
  })
  if (!newPassword) return answer(codes.find(ctx.project, oobCode))
  checkPasswordLength(newPassword)
  const row = codes.find(ctx.project, oobCode)
  const hashed = await hashPassword(newPassword)
  // The hash yielded to other requests: the code is used up now, once, and the user read as it is.
  const used = codes.consume(ctx.project, oobCode)
  const user = ctx.store.get(ctx.project, used.local_id)
  assert(user && user.email === row.email, 'INVALID_OOB_CODE')
  // Real time, not the codes' clock: tokens are checked against it.
  const now = Date.now()
  ctx.store.transaction(() => {
    applyFields(user, {
      ...hashed,
      emailVerified: true,
      passwordUpdatedAt: now,
      validSince: String(Math.floor(now / 1000)),
    })
    ctx.store.put(ctx.project, user)
    ctx.store.revokeRefreshSessions(ctx.project, user.localId)
  })
  codes.consumeAll(ctx.project, user.localId)
  // A new password restores a throttled account at once, as production's lock message promises.
  if (user.email) ctx.throttle?.forget(throttleKey(ctx.project, user.email))
  return answer(row)
}
