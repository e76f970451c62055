import {
  add,
  arithmetic,
  type Comparison,
  callMethod,
  compareOp,
  GLOBAL_FUNCTIONS,
  index,
  inOp,
  isType,
  KNOWN_METHODS,
  member,
  NAMESPACES,
  regex,
  slice,
} from './builtins.ts'
import type { Expr, FunctionDecl, Pos } from './parser.ts'
import { fail, failLimit, RPath, RulesEvalError, RulesLimitError, type RValue, typeName } from './values.ts'

export const MAX_EXPRESSIONS = 1000
export const MAX_CALL_DEPTH = 20

/** What the service supplies to `get()`/`exists()` and friends. */
export type Host = {
  lookup(path: RPath, after: boolean): RValue
}

/** Per-evaluation state: one per allow-method (and per list "way"), reset between them. */
export type Ctx = {
  request: RValue
  resource: RValue
  /** Wildcard bindings; `undefined` for a binding the request leaves unknown (list queries). */
  wild: Record<string, RValue | undefined>
  steps: number
  depth: number
  host: Host
}

class Lazy {
  state: 0 | 1 | 2 = 0
  value: RValue = null
  error: unknown = null
  constructor(
    readonly thunk: Thunk,
    readonly slots: Slot[],
  ) {}
}
type Slot = RValue | Lazy
export type Thunk = (c: Ctx, slots: Slot[]) => RValue

export type CompiledFunction = {
  decl: FunctionDecl
  scope: Scope
  run: Thunk | null
  calls: { target: CompiledFunction; pos: Pos }[]
}

export type Scope = {
  parent: Scope | null
  functions: Map<string, CompiledFunction>
  wildcards: Set<string>
  slots: Map<string, number> | null
}

export type CompileOptions = {
  service: 'cloud.firestore' | 'firebase.storage'
  errorAt: (pos: Pos, what: string) => never
}

const FIRESTORE_LOOKUPS = new Set(['get', 'exists', 'getAfter', 'existsAfter'])

function namespacesFor(service: CompileOptions['service']): Set<string> {
  const names = new Set(Object.keys(NAMESPACES))
  if (service === 'firebase.storage') names.add('firestore')
  return names
}

function tick(c: Ctx): void {
  if (++c.steps > MAX_EXPRESSIONS) failLimit('Exceeded the maximum number of expressions (1000).')
}

function asBool(value: RValue, what: string): boolean {
  if (typeof value !== 'boolean') fail(`${what} expects a bool, got ${typeName(value)}.`)
  return value as boolean
}

function readSlot(slot: Slot, c: Ctx): RValue {
  if (!(slot instanceof Lazy)) return slot
  if (slot.state === 1) return slot.value
  if (slot.state === 2) throw slot.error
  try {
    slot.value = slot.thunk(c, slot.slots)
    slot.state = 1
    return slot.value
  } catch (error) {
    slot.state = 2
    slot.error = error
    throw error
  }
}

export class Compiler {
  private readonly namespaces: Set<string>

  constructor(private readonly options: CompileOptions) {
    this.namespaces = namespacesFor(options.service)
  }

  /** Declares a block's functions (visible to the whole block, in any order) and returns its scope. */
  declare(parent: Scope | null, functions: FunctionDecl[], wildcards: string[]): Scope {
    const scope: Scope = { parent, functions: new Map(), wildcards: new Set(wildcards), slots: null }
    for (const decl of functions) {
      if (scope.functions.has(decl.name)) this.options.errorAt(decl, `function ${decl.name} is already defined here`)
      scope.functions.set(decl.name, { decl, scope, run: null, calls: [] })
    }
    return scope
  }

  compileFunction(fn: CompiledFunction): void {
    const slots = new Map<string, number>()
    fn.decl.params.forEach((name, i) => {
      slots.set(name, i)
    })
    const scope: Scope = { parent: fn.scope, functions: new Map(), wildcards: new Set(), slots }
    const lets: Thunk[] = []
    for (const binding of fn.decl.lets) {
      lets.push(this.compile(binding.value, scope, fn))
      slots.set(binding.name, slots.size)
    }
    const body = this.compile(fn.decl.body, scope, fn)
    const params = fn.decl.params.length
    fn.run =
      lets.length === 0
        ? body
        : (c, frame) => {
            for (let i = 0; i < lets.length; i++) frame[params + i] = new Lazy(lets[i] as Thunk, frame)
            return body(c, frame)
          }
  }

  /** Rejects direct or cyclic recursion, which the language forbids. */
  checkRecursion(all: CompiledFunction[]): void {
    const state = new Map<CompiledFunction, 1 | 2>()
    const visit = (fn: CompiledFunction): void => {
      state.set(fn, 1)
      for (const { target, pos } of fn.calls) {
        const s = state.get(target)
        if (s === 1) this.options.errorAt(pos, `recursive call of function ${target.decl.name} is not allowed`)
        if (s === undefined) visit(target)
      }
      state.set(fn, 2)
    }
    for (const fn of all) if (!state.has(fn)) visit(fn)
  }

  compile(expr: Expr, scope: Scope, owner: CompiledFunction | null): Thunk {
    const inner = this.compileNode(expr, scope, owner)
    if (expr.kind === 'literal') return inner
    return (c, f) => {
      tick(c)
      return inner(c, f)
    }
  }

  private compileNode(expr: Expr, scope: Scope, owner: CompiledFunction | null): Thunk {
    const errorAt = this.options.errorAt
    switch (expr.kind) {
      case 'literal': {
        const value = expr.value
        if (typeof value === 'bigint' && value > 2n ** 63n - 1n) errorAt(expr, 'integer literal out of range')
        return () => value
      }
      case 'ident':
        return this.compileIdent(expr, expr.name, scope)
      case 'list': {
        const items = expr.items.map((item) => this.compile(item, scope, owner))
        return (c, f) => items.map((item) => item(c, f))
      }
      case 'map': {
        const entries = expr.entries.map(({ key, value }) => ({
          key: this.compile(key, scope, owner),
          value: this.compile(value, scope, owner),
        }))
        return (c, f) => {
          const map = new Map<string, RValue>()
          for (const entry of entries) {
            const key = entry.key(c, f)
            if (typeof key !== 'string') fail(`Map keys must be strings, got ${typeName(key)}.`)
            map.set(key as string, entry.value(c, f))
          }
          return map
        }
      }
      case 'path': {
        const parts = expr.parts.map((part) => ('text' in part ? part.text : this.compile(part.expr, scope, owner)))
        return (c, f) => {
          const segments: string[] = []
          for (const part of parts) {
            if (typeof part === 'string') {
              segments.push(part)
              continue
            }
            const value = part(c, f)
            if (typeof value === 'string') segments.push(value)
            else if (value instanceof RPath) segments.push(...value.segments)
            else if (typeof value === 'bigint') segments.push(String(value))
            else fail(`A path segment must be a string, got ${typeName(value)}.`)
          }
          return new RPath(segments)
        }
      }
      case 'member': {
        if (expr.target.kind === 'ident' && this.isNamespace(expr.target.name, scope))
          errorAt(expr, `${expr.target.name}.${expr.name} must be called`)
        const target = this.compile(expr.target, scope, owner)
        const name = expr.name
        return (c, f) => member(target(c, f), name)
      }
      case 'index': {
        const target = this.compile(expr.target, scope, owner)
        const key = this.compile(expr.index, scope, owner)
        return (c, f) => index(target(c, f), key(c, f))
      }
      case 'slice': {
        const target = this.compile(expr.target, scope, owner)
        const from = expr.from ? this.compile(expr.from, scope, owner) : null
        const to = expr.to ? this.compile(expr.to, scope, owner) : null
        return (c, f) => slice(target(c, f), from ? from(c, f) : undefined, to ? to(c, f) : undefined)
      }
      case 'call':
        return this.compileCall(expr, expr.callee, expr.args, scope, owner)
      case 'unary': {
        const operand = this.compile(expr.operand, scope, owner)
        if (expr.op === '!') return (c, f) => !asBool(operand(c, f), '!')
        return (c, f) => {
          const value = operand(c, f)
          if (typeof value === 'bigint') return value === -(2n ** 63n) ? fail('Integer overflow error.') : -value
          if (typeof value === 'number') return -value
          return fail(`Unsupported operation error. Received: -${typeName(value)}.`)
        }
      }
      case 'is': {
        const operand = this.compile(expr.operand, scope, owner)
        const type = expr.type
        return (c, f) => isType(operand(c, f), type)
      }
      case 'ternary': {
        const test = this.compile(expr.test, scope, owner)
        const then = this.compile(expr.then, scope, owner)
        const otherwise = this.compile(expr.otherwise, scope, owner)
        return (c, f) => (asBool(test(c, f), '?:') ? then(c, f) : otherwise(c, f))
      }
      case 'binary':
        return this.compileBinary(expr.op, expr.left, expr.right, scope, owner)
    }
  }

  private compileBinary(
    op: string,
    leftExpr: Expr,
    rightExpr: Expr,
    scope: Scope,
    owner: CompiledFunction | null,
  ): Thunk {
    const left = this.compile(leftExpr, scope, owner)
    const right = this.compile(rightExpr, scope, owner)
    switch (op) {
      case '&&':
      case '||': {
        // Commutative error absorption as in CEL (docs/wire/rules.md#error-absorption): an error on either side is
        // forgiven when the other side alone decides the result.
        const decisive = op === '||'
        return (c, f) => {
          let leftError: unknown = null
          try {
            if (asBool(left(c, f), op) === decisive) return decisive
          } catch (error) {
            if (!(error instanceof RulesEvalError) || error instanceof RulesLimitError) throw error
            leftError = error
          }
          let value: boolean
          try {
            value = asBool(right(c, f), op)
          } catch (error) {
            // Both sides failed: the first error in source order is reported.
            throw error instanceof RulesLimitError ? error : (leftError ?? error)
          }
          if (value === decisive) return decisive
          if (leftError) throw leftError
          return !decisive
        }
      }
      case '==':
      case '!=':
      case '<':
      case '<=':
      case '>':
      case '>=':
        return (c, f) => compareOp(op as Comparison, left(c, f), right(c, f))
      case 'in':
        return (c, f) => inOp(left(c, f), right(c, f))
      case '+':
        return (c, f) => add(left(c, f), right(c, f))
      default:
        return (c, f) => arithmetic(op as '-' | '*' | '/' | '%', left(c, f), right(c, f))
    }
  }

  private isNamespace(name: string, scope: Scope): boolean {
    return this.namespaces.has(name) && this.resolveVariable(name, scope) === null
  }

  private resolveVariable(name: string, scope: Scope): { slot: number } | { wildcard: string } | null {
    for (let s: Scope | null = scope; s; s = s.parent) {
      const slot = s.slots?.get(name)
      if (slot !== undefined) return { slot }
      if (s.wildcards.has(name)) return { wildcard: name }
    }
    return null
  }

  private compileIdent(pos: Pos, name: string, scope: Scope): Thunk {
    const resolved = this.resolveVariable(name, scope)
    if (resolved && 'slot' in resolved) {
      const slot = resolved.slot
      return (c, f) => readSlot(f[slot] as Slot, c)
    }
    if (resolved) {
      return (c) => {
        const value = c.wild[name]
        if (value === undefined) fail(`Variable ${name} is not bound for this request (list query).`)
        return value as RValue
      }
    }
    if (name === 'request') return (c) => c.request
    if (name === 'resource') return (c) => c.resource
    if (this.namespaces.has(name)) this.options.errorAt(pos, `${name} is a namespace: call one of its functions`)
    return this.options.errorAt(pos, `unknown variable ${name}`)
  }

  private findFunction(name: string, scope: Scope): CompiledFunction | undefined {
    for (let s: Scope | null = scope; s; s = s.parent) {
      const fn = s.functions.get(name)
      if (fn) return fn
    }
    return undefined
  }

  private compileCall(pos: Pos, callee: Expr, argExprs: Expr[], scope: Scope, owner: CompiledFunction | null): Thunk {
    const errorAt = this.options.errorAt
    const args = argExprs.map((arg) => this.compile(arg, scope, owner))
    const evalArgs = (c: Ctx, f: Slot[]) => args.map((arg) => arg(c, f))
    if (callee.kind === 'ident') {
      const name = callee.name
      const fn = this.findFunction(name, scope)
      if (fn) {
        if (fn.decl.params.length !== args.length)
          errorAt(pos, `function ${name} takes ${fn.decl.params.length} argument(s), got ${args.length}`)
        owner?.calls.push({ target: fn, pos })
        const frameSize = fn.decl.params.length + fn.decl.lets.length
        return (c, f) => {
          const frame: Slot[] = new Array(frameSize)
          for (let i = 0; i < args.length; i++) frame[i] = (args[i] as Thunk)(c, f)
          if (++c.depth > MAX_CALL_DEPTH) failLimit('Exceeded the maximum function call depth (20).')
          try {
            return (fn.run as Thunk)(c, frame)
          } finally {
            c.depth--
          }
        }
      }
      if (FIRESTORE_LOOKUPS.has(name)) {
        if (this.options.service !== 'cloud.firestore')
          errorAt(
            pos,
            `${name}() is not available in storage rules: use firestore.${name === 'get' ? 'get' : 'exists'}()`,
          )
        return this.lookupCall(pos, name, args)
      }
      const builtin = Object.hasOwn(GLOBAL_FUNCTIONS, name) ? GLOBAL_FUNCTIONS[name] : undefined
      if (!builtin) return errorAt(pos, `unknown function ${name}`)
      return (c, f) => builtin(evalArgs(c, f))
    }
    if (callee.kind === 'member') {
      const name = callee.name
      if (callee.target.kind === 'ident' && this.isNamespace(callee.target.name, scope)) {
        const ns = callee.target.name
        if (ns === 'firestore') {
          if (name !== 'get' && name !== 'exists') errorAt(callee, `unknown function firestore.${name}`)
          return this.lookupCall(pos, name, args)
        }
        const table = NAMESPACES[ns] as Record<string, (args: RValue[]) => RValue>
        const fn = Object.hasOwn(table, name) ? table[name] : undefined
        if (!fn) return errorAt(callee, `unknown function ${ns}.${name}`)
        return (c, f) => fn(evalArgs(c, f))
      }
      if (!KNOWN_METHODS.has(name)) return errorAt(callee, `unknown method ${name}()`)
      if ((name === 'matches' || name === 'split' || name === 'replace') && argExprs[0]?.kind === 'literal') {
        const pattern = argExprs[0].value
        if (typeof pattern === 'string') {
          try {
            regex(name === 'matches' ? `^(?:${pattern})$` : pattern)
          } catch (error) {
            if (error instanceof RulesEvalError) errorAt(argExprs[0], error.message)
            throw error
          }
        }
      }
      const target = this.compile(callee.target, scope, owner)
      return (c, f) => callMethod(target(c, f), name, evalArgs(c, f))
    }
    return errorAt(pos, 'only functions and methods can be called')
  }

  private lookupCall(pos: Pos, name: string, args: Thunk[]): Thunk {
    if (args.length !== 1) this.options.errorAt(pos, `${name}() takes 1 argument, got ${args.length}`)
    const arg = args[0] as Thunk
    const after = name === 'getAfter' || name === 'existsAfter'
    const exists = name.startsWith('exists')
    return (c, f) => {
      const path = arg(c, f)
      if (!(path instanceof RPath)) return fail(`${name}() expects a path, got ${typeName(path)}.`)
      const found = c.host.lookup(path, after)
      return exists ? found !== null : found
    }
  }
}
