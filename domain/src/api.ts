import { z } from 'zod'
import { da } from './messages/da.ts'
import { PASSWORD_POLICIES } from './password-policy.ts'
import { CustomClaimsSchema, USER_ROLES } from './user.ts'
import { DisplayNameSchema, EmailSchema, PASSWORD_MAX_LENGTH, PasswordSchema } from './validation.ts'

/** Request/response contracts of the api (REQ-CALL; the routes themselves: api/README.md). */
export const LoginRequestSchema = z.object({ idToken: z.string().min(1) })
/** The longest Firebase refresh token the api reads (Google's are a few hundred characters). */
export const REFRESH_TOKEN_MAX_LENGTH = 4096
/** "Log ud": optionally this device's Firebase refresh token, to end it too (ADR 0025). */
export const LogoutRequestSchema = z.object({
  refreshToken: z.string().min(1).max(REFRESH_TOKEN_MAX_LENGTH).optional(),
})
export const ValidateRequestSchema = z.object({ token: z.string().optional() })
export const ValidateResponseSchema = z.object({ isValid: z.boolean() })
/** POST /api/auth/token: a custom token for the session's holder to sign Firebase Auth in with. */
export const CustomTokenResponseSchema = z.object({ customToken: z.string().min(1) })
export const GetUserByIdQuerySchema = z.object({ id: z.string().min(1).max(128) })
export const CreateUserRequestSchema = z.object({
  email: EmailSchema,
  password: PasswordSchema,
  displayName: DisplayNameSchema,
  avatarUrl: z.string().url().optional(),
})
export type CreateUserRequest = z.infer<typeof CreateUserRequestSchema>
export const CreateUserResponseSchema = z.object({ statusCode: z.literal(200), body: z.object({ userId: z.string() }) })
export const SetRoleRequestSchema = z.object({ userRole: z.enum(USER_ROLES), admin: z.boolean() })
export const UserRecordResponseSchema = z.object({
  data: z.object({
    uid: z.string(),
    email: z.string().nullable(),
    displayName: z.string().nullable(),
    disabled: z.boolean(),
    customClaims: z.record(z.string(), z.unknown()),
  }),
})
/** What the web reads of GET /api/user/getUserById: the record's claims (null or absent: none). */
export const UserClaimsResponseSchema = z.object({
  data: z.object({ customClaims: CustomClaimsSchema.nullish() }),
})

/** Cookie names read by the web (REQ-MODEL-4). */
export const SESSION_COOKIE = 'session'
export const USER_ID_COOKIE = 'userId'

/** A password as sent to the api: the policy itself (PASSWORD_POLICY) is checked by the api after this. */
const NewPasswordSchema = z
  .string()
  .min(1, da.validation.passwordRequired)
  .max(PASSWORD_MAX_LENGTH, da.validation.passwordTooLong)
/** POST /api/auth/change-password: the signed-in user's own password (docs/decisions/0023-passwords.md). */
export const ChangePasswordRequestSchema = z.object({
  currentPassword: z.string().min(1, da.validation.passwordRequired).max(PASSWORD_MAX_LENGTH),
  newPassword: NewPasswordSchema,
})
/** PUT /api/user/{id}/temporary-password: set by an admin or superuser, changed at the next sign-in. */
export const TemporaryPasswordRequestSchema = z.object({ password: NewPasswordSchema })
/** POST /api/auth/forgot-password: sends a reset link where mail is configured. */
export const ForgotPasswordRequestSchema = z.object({ email: EmailSchema })
/** POST /api/auth/reset-password: the code of a reset link and the new password. */
export const ResetPasswordRequestSchema = z.object({
  oobCode: z.string().min(1).max(512),
  newPassword: NewPasswordSchema,
})
/** GET /api/auth/password-policy: what the web checks and says before it asks. */
export const PasswordPolicyResponseSchema = z.object({
  policy: z.enum(PASSWORD_POLICIES),
  minLength: z.number(),
  resetByMail: z.boolean(),
})
export type PasswordPolicyResponse = z.infer<typeof PasswordPolicyResponseSchema>
/** The custom claim of an account whose password was set by someone else: it must be changed first. */
export const MUST_CHANGE_PASSWORD_CLAIM = 'mustChangePassword'
