import * as z from 'zod/mini'
import { USER_ROLES, type UserRole } from './user.ts'
import { FirstNameSchema, JobRoleSchema, NameSchema } from './validation.ts'

// A module of its own: only Brugere's edit dialog loads it (the web's shared domain chunks stay as they are).
/** The roles an admin chooses from when editing a colleague ('user' is shown as 'employee'). */
export const EDITABLE_ROLES = ['employee', 'superuser', 'admin'] as const satisfies readonly UserRole[]

/** A colleague as edited in Brugere (users/{id} and, for admins, the api's role call). */
export const UserEditSchema = z.object({
  firstName: FirstNameSchema,
  lastName: NameSchema,
  jobRole: JobRoleSchema,
  disabled: z.boolean(),
  userRole: z.enum(USER_ROLES),
})
export type UserEdit = z.input<typeof UserEditSchema>
export type ValidUserEdit = z.output<typeof UserEditSchema>
