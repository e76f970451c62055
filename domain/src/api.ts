import * as z from 'zod/mini'
import { PASSWORD_POLICIES } from './password-policy.ts'
import { CustomClaimsSchema, USER_ROLES } from './user.ts'
import { DisplayNameSchema, EmailSchema, PasswordSchema } from './validation.ts'

/**
 * Request/response contracts of the api (REQ-CALL; the routes themselves: api/README.md). The schemas
 * only the api uses are marked pure, so the bundler leaves them out of the web's code.
 */
export const LoginRequestSchema = /* @__PURE__ */ z.object({
  idToken: /* @__PURE__ */ z.string().check(z.minLength(1)),
})
/** The longest Firebase refresh token the api reads (Google's are a few hundred characters). */
export const REFRESH_TOKEN_MAX_LENGTH = 4096
/** "Log ud": optionally this device's Firebase refresh token, to end it too (ADR 0025). */
export const LogoutRequestSchema = /* @__PURE__ */ z.object({
  refreshToken: /* @__PURE__ */ z.optional(
    /* @__PURE__ */ z.string().check(z.minLength(1), z.maxLength(REFRESH_TOKEN_MAX_LENGTH)),
  ),
})
export const ValidateRequestSchema = /* @__PURE__ */ z.object({ token: /* @__PURE__ */ z.optional(z.string()) })
export const ValidateResponseSchema = z.object({ isValid: z.boolean() })
/** POST /api/auth/token: a custom token for the session's holder to sign Firebase Auth in with. */
export const CustomTokenResponseSchema = z.object({ customToken: z.string().check(z.minLength(1)) })
export const GetUserByIdQuerySchema = /* @__PURE__ */ z.object({
  id: /* @__PURE__ */ z.string().check(z.minLength(1), z.maxLength(128)),
})
export const CreateUserRequestSchema = /* @__PURE__ */ z.object({
  email: EmailSchema,
  password: PasswordSchema,
  displayName: DisplayNameSchema,
  avatarUrl: /* @__PURE__ */ z.optional(z.url()),
})
export type CreateUserRequest = z.infer<typeof CreateUserRequestSchema>
export const CreateUserResponseSchema = z.object({ statusCode: z.literal(200), body: z.object({ userId: z.string() }) })
export const SetRoleRequestSchema = /* @__PURE__ */ z.object({
  userRole: /* @__PURE__ */ z.enum(USER_ROLES),
  admin: /* @__PURE__ */ z.boolean(),
})
export const UserRecordResponseSchema = /* @__PURE__ */ z.object({
  data: /* @__PURE__ */ z.object({
    uid: /* @__PURE__ */ z.string(),
    email: /* @__PURE__ */ z.nullable(z.string()),
    displayName: /* @__PURE__ */ z.nullable(z.string()),
    disabled: /* @__PURE__ */ z.boolean(),
    customClaims: /* @__PURE__ */ z.record(/* @__PURE__ */ z.string(), /* @__PURE__ */ z.unknown()),
  }),
})
/** What the web reads of GET /api/user/getUserById: the record's claims (null or absent: none). */
export const UserClaimsResponseSchema = z.object({
  data: z.object({ customClaims: z.nullish(CustomClaimsSchema) }),
})

/** Cookie names read by the web (REQ-MODEL-4). */
export const SESSION_COOKIE = 'session'
export const USER_ID_COOKIE = 'userId'

/** GET /api/auth/password-policy: what the web checks and says before it asks. */
export const PasswordPolicyResponseSchema = z.object({
  policy: z.enum(PASSWORD_POLICIES),
  minLength: z.number(),
  resetByMail: z.boolean(),
})
export type PasswordPolicyResponse = z.infer<typeof PasswordPolicyResponseSchema>
/** The custom claim of an account whose password was set by someone else: it must be changed first. */
export const MUST_CHANGE_PASSWORD_CLAIM = 'mustChangePassword'
