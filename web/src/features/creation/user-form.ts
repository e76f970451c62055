import { da } from '@bosted/domain/messages/da'
import { CREATION_FORM_JOB_ROLE, NewUserSchema } from '@bosted/domain/user'
import { EmailSchema, JobRoleSchema, NameSchema, PasswordSchema, PhoneSchema } from '@bosted/domain/validation'
import * as z from 'zod/mini'

/** Roles a creator may give: employees and superusers; admins only when an admin creates. */
export const CREATABLE_ROLES = ['employee', 'superuser', 'admin'] as const
export type CreatableRole = (typeof CREATABLE_ROLES)[number]

export const UserFormSchema = z.object({
  firstName: NewUserSchema.shape.firstName,
  lastName: NameSchema,
  email: EmailSchema,
  password: PasswordSchema,
  phone: PhoneSchema,
  jobRole: JobRoleSchema,
  userRole: z.enum(CREATABLE_ROLES),
  locations: z.array(z.string()).check(z.minLength(1, da.form.locationsRequired)),
})
export type UserForm = z.input<typeof UserFormSchema>
export type ValidUserForm = z.output<typeof UserFormSchema>

export function emptyUserForm(locations: string[]): UserForm {
  return {
    firstName: '',
    lastName: '',
    email: '',
    password: '',
    phone: '',
    jobRole: CREATION_FORM_JOB_ROLE,
    userRole: 'employee',
    locations,
  }
}

/**
 * The roles the creator may choose: the rules let a superuser create employees only (and only
 * admins set roles above that), so a superuser is offered 'employee' alone.
 */
export function rolesFor(isCreatorAdmin: boolean): readonly CreatableRole[] {
  return isCreatorAdmin ? CREATABLE_ROLES : ['employee']
}
