import * as z from 'zod/mini'
import { da } from './messages/da.ts'
import { EmailSchema, PASSWORD_MAX_LENGTH } from './validation.ts'

// The api's password requests (REQ-CALL, beside api.ts), in a module of their own so the web's form for
// a temporary password loads its schema without the rest of the api's contracts. The schemas the web does
// not use are marked pure, so the bundler leaves them out of the web's code (the api uses them all).

/** A password as sent to the api: the policy itself (PASSWORD_POLICY) is checked by the api after this. */
const NewPasswordSchema = z
  .string()
  .check(
    z.minLength(1, da.validation.passwordRequired),
    z.maxLength(PASSWORD_MAX_LENGTH, da.validation.passwordTooLong),
  )
/** POST /api/auth/change-password: the signed-in user's own password (docs/decisions/0023-passwords.md). */
export const ChangePasswordRequestSchema = /* @__PURE__ */ z.object({
  currentPassword: /* @__PURE__ */ z
    .string()
    .check(z.minLength(1, da.validation.passwordRequired), z.maxLength(PASSWORD_MAX_LENGTH)),
  newPassword: NewPasswordSchema,
})
/** PUT /api/user/{id}/temporary-password: set by an admin or superuser, changed at the next sign-in. */
export const TemporaryPasswordRequestSchema = z.object({ password: NewPasswordSchema })
/** POST /api/auth/forgot-password: sends a reset link where mail is configured. */
export const ForgotPasswordRequestSchema = /* @__PURE__ */ z.object({ email: EmailSchema })
/** POST /api/auth/reset-password: the code of a reset link and the new password. */
export const ResetPasswordRequestSchema = /* @__PURE__ */ z.object({
  oobCode: /* @__PURE__ */ z.string().check(z.minLength(1), z.maxLength(512)),
  newPassword: NewPasswordSchema,
})
