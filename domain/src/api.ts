import { z } from 'zod'
import { USER_ROLES } from './user.ts'
import { DisplayNameSchema, EmailSchema, PasswordSchema } from './validation.ts'

/** Request/response contracts of the api (SPEC §7, DESIGN "Sessions and the api"). */
export const LoginRequestSchema = z.object({ idToken: z.string().min(1) })
export const ValidateRequestSchema = z.object({ token: z.string().optional() })
export const ValidateResponseSchema = z.object({ isValid: z.boolean() })
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

/** Cookie names read by the web (SPEC §3). */
export const SESSION_COOKIE = 'session'
export const USER_ID_COOKIE = 'userId'
