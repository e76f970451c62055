/** A syntax error or an unsupported construct in a rules file, located as `file:line:column: what`. */
export class RulesError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    what: string,
  ) {
    super(`${file}:${line}:${column}: ${what}`)
    this.name = 'RulesError'
  }
}

export type Pos = { line: number; col: number }

export type Expr = Pos &
  (
    | { kind: 'literal'; value: null | boolean | bigint | number | string | Uint8Array }
    | { kind: 'ident'; name: string }
    | { kind: 'list'; items: Expr[] }
    | { kind: 'map'; entries: { key: Expr; value: Expr }[] }
    | { kind: 'path'; parts: PathPart[] }
    | { kind: 'member'; target: Expr; name: string }
    | { kind: 'index'; target: Expr; index: Expr }
    | { kind: 'slice'; target: Expr; from: Expr | null; to: Expr | null }
    | { kind: 'call'; callee: Expr; args: Expr[] }
    | { kind: 'unary'; op: '!' | '-'; operand: Expr }
    | { kind: 'binary'; op: BinaryOp; left: Expr; right: Expr }
    | { kind: 'is'; operand: Expr; type: string }
    | { kind: 'ternary'; test: Expr; then: Expr; otherwise: Expr }
  )
export type BinaryOp = '||' | '&&' | '==' | '!=' | '<' | '<=' | '>' | '>=' | 'in' | '+' | '-' | '*' | '/' | '%'
/** One segment of a path literal: text, or the concatenated pieces of text and interpolations. */
export type PathPart = { text: string } | { expr: Expr }

export type Segment = { kind: 'literal'; text: string } | { kind: 'var'; name: string } | { kind: 'rest'; name: string }
export type FunctionDecl = Pos & { name: string; params: string[]; lets: { name: string; value: Expr }[]; body: Expr }
export type Method = 'get' | 'list' | 'create' | 'update' | 'delete' | 'read' | 'write'
export type Allow = Pos & { methods: Method[]; condition: Expr | null }
export type MatchBlock = Pos & {
  segments: Segment[]
  functions: FunctionDecl[]
  allows: Allow[]
  matches: MatchBlock[]
}
export type RulesFile = {
  version: '1' | '2'
  service: 'cloud.firestore' | 'firebase.storage'
  /** Declared at file scope, outside `service`: visible in the service, shadowed by its own functions. */
  globals: FunctionDecl[]
  /** Declared in the service block. */
  functions: FunctionDecl[]
  matches: MatchBlock[]
}

const METHODS = new Set(['get', 'list', 'create', 'update', 'delete', 'read', 'write'])
export const TYPE_NAMES = new Set([
  'bool',
  'int',
  'float',
  'number',
  'string',
  'bytes',
  'list',
  'map',
  'set',
  'map_diff',
  'timestamp',
  'duration',
  'latlng',
  'path',
  'constraint',
])
const PUNCT = ['&&', '||', '==', '!=', '<=', '>=', '**', '$(', '{', '}', '(', ')', '[', ']', ';', ',', '.', ':', '?']
const SINGLE = '!=<>+-*/%'

type Token = Pos & {
  type: 'ident' | 'int' | 'float' | 'string' | 'bytes' | 'punct' | 'eof'
  text: string
  value?: bigint | number | string | Uint8Array
  start: number
  end: number
}

const MAX_DEPTH = 200

class Parser {
  private readonly lineStarts: number[] = [0]
  private pos = 0
  private lookahead: Token | null = null
  private depth = 0

  constructor(
    private readonly src: string,
    private readonly file: string,
  ) {
    for (let i = 0; i < src.length; i++) if (src[i] === '\n') this.lineStarts.push(i + 1)
  }

  at(offset: number): Pos {
    let lo = 0
    let hi = this.lineStarts.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if ((this.lineStarts[mid] as number) <= offset) lo = mid
      else hi = mid - 1
    }
    return { line: lo + 1, col: offset - (this.lineStarts[lo] as number) + 1 }
  }

  error(offset: number, what: string): never {
    const { line, col } = this.at(offset)
    throw new RulesError(this.file, line, col, what)
  }

  errorAt(pos: Pos, what: string): never {
    throw new RulesError(this.file, pos.line, pos.col, what)
  }

  private skipSpace(): void {
    const src = this.src
    for (;;) {
      const c = src[this.pos]
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || c === '\uFEFF') this.pos++
      else if (c === '/' && src[this.pos + 1] === '/') {
        while (this.pos < src.length && src[this.pos] !== '\n') this.pos++
      } else if (c === '/' && src[this.pos + 1] === '*') {
        const end = src.indexOf('*/', this.pos + 2)
        if (end < 0) this.error(this.pos, 'unterminated comment')
        this.pos = end + 2
      } else return
    }
  }

  private lex(): Token {
    this.skipSpace()
    const src = this.src
    const start = this.pos
    const here = this.at(start)
    const make = (type: Token['type'], text: string, value?: Token['value']): Token => ({
      type,
      text,
      value,
      start,
      end: this.pos,
      ...here,
    })
    if (start >= src.length) return make('eof', '')
    const c = src[start] as string
    if ((c === 'b' || c === 'B') && (src[start + 1] === "'" || src[start + 1] === '"')) {
      this.pos++
      const text = this.readString()
      return make('bytes', src.slice(start, this.pos), new Uint8Array(Buffer.from(text, 'latin1')))
    }
    if ((c === 'r' || c === 'R') && (src[start + 1] === "'" || src[start + 1] === '"')) {
      this.pos++
      const text = this.readString(true)
      return make('string', src.slice(start, this.pos), text)
    }
    if (/[A-Za-z_]/.test(c)) {
      while (this.pos < src.length && /[A-Za-z0-9_]/.test(src[this.pos] as string)) this.pos++
      return make('ident', src.slice(start, this.pos))
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[start + 1] ?? ''))) return this.readNumber(make)
    if (c === "'" || c === '"') {
      const text = this.readString()
      return make('string', src.slice(start, this.pos), text)
    }
    for (const p of PUNCT) {
      if (src.startsWith(p, start)) {
        this.pos += p.length
        return make('punct', p)
      }
    }
    if (SINGLE.includes(c)) {
      this.pos++
      return make('punct', c)
    }
    if (c === '=') {
      this.pos++
      return make('punct', '=')
    }
    return this.error(start, `unexpected character ${JSON.stringify(c)}`)
  }

  private readNumber(make: (type: Token['type'], text: string, value?: Token['value']) => Token): Token {
    const src = this.src
    const start = this.pos
    if (src[start] === '0' && (src[start + 1] === 'x' || src[start + 1] === 'X')) {
      this.pos += 2
      while (/[0-9a-fA-F]/.test(src[this.pos] ?? '')) this.pos++
      const text = src.slice(start, this.pos)
      if (text.length === 2) this.error(start, 'invalid hex literal')
      return this.intToken(make, text, BigInt(text), start)
    }
    while (/[0-9]/.test(src[this.pos] ?? '')) this.pos++
    let isFloat = false
    if (src[this.pos] === '.' && /[0-9]/.test(src[this.pos + 1] ?? '')) {
      isFloat = true
      this.pos++
      while (/[0-9]/.test(src[this.pos] ?? '')) this.pos++
    }
    if (src[this.pos] === 'e' || src[this.pos] === 'E') {
      const save = this.pos
      this.pos++
      if (src[this.pos] === '+' || src[this.pos] === '-') this.pos++
      if (/[0-9]/.test(src[this.pos] ?? '')) {
        isFloat = true
        while (/[0-9]/.test(src[this.pos] ?? '')) this.pos++
      } else this.pos = save
    }
    if (/[A-Za-z_]/.test(src[this.pos] ?? '')) this.error(this.pos, 'invalid number literal')
    const text = src.slice(start, this.pos)
    if (isFloat) return make('float', text, Number(text))
    return this.intToken(make, text, BigInt(text), start)
  }

  private intToken(
    make: (type: Token['type'], text: string, value?: Token['value']) => Token,
    text: string,
    value: bigint,
    start: number,
  ): Token {
    // 2^63 is allowed only so that `-9223372036854775808` can be written; the negation checks it.
    if (value > 2n ** 63n) this.error(start, `integer literal ${text} is out of range`)
    return make('int', text, value)
  }

  private readString(raw = false): string {
    const src = this.src
    const start = this.pos
    const quote = src[this.pos] as string
    this.pos++
    let out = ''
    for (;;) {
      if (this.pos >= src.length || src[this.pos] === '\n') this.error(start, 'unterminated string')
      const c = src[this.pos] as string
      this.pos++
      if (c === quote) return out
      if (c !== '\\' || raw) {
        out += c
        continue
      }
      const e = src[this.pos] as string | undefined
      this.pos++
      switch (e) {
        case 'n':
          out += '\n'
          break
        case 't':
          out += '\t'
          break
        case 'r':
          out += '\r'
          break
        case 'a':
          out += '\x07'
          break
        case 'b':
          out += '\b'
          break
        case 'f':
          out += '\f'
          break
        case 'v':
          out += '\v'
          break
        case '\\':
        case "'":
        case '"':
        case '`':
        case '?':
          out += e
          break
        case 'x':
        case 'u':
        case 'U': {
          const length = e === 'x' ? 2 : e === 'u' ? 4 : 8
          const hex = src.slice(this.pos, this.pos + length)
          if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(hex)) this.error(this.pos - 2, 'invalid escape sequence')
          const code = Number.parseInt(hex, 16)
          if (code > 0x10ffff) this.error(this.pos - 2, 'invalid escape sequence')
          out += String.fromCodePoint(code)
          this.pos += length
          break
        }
        default:
          if (e !== undefined && /[0-7]/.test(e)) {
            const oct = src.slice(this.pos - 1, this.pos + 2)
            if (!/^[0-7]{3}$/.test(oct)) this.error(this.pos - 2, 'invalid escape sequence')
            out += String.fromCharCode(Number.parseInt(oct, 8))
            this.pos += 2
          } else this.error(this.pos - 2, 'invalid escape sequence')
      }
    }
  }

  peek(): Token {
    if (!this.lookahead) this.lookahead = this.lex()
    return this.lookahead
  }

  next(): Token {
    const token = this.peek()
    this.lookahead = null
    return token
  }

  /** Drops the lookahead so the raw scanner can restart at its start. */
  rewindTo(token: Token): void {
    this.lookahead = null
    this.pos = token.start
  }

  is(text: string): boolean {
    const token = this.peek()
    return (token.type === 'punct' || token.type === 'ident') && token.text === text
  }

  accept(text: string): boolean {
    if (!this.is(text)) return false
    this.next()
    return true
  }

  expect(text: string, what = `'${text}'`): Token {
    const token = this.peek()
    if (!this.is(text)) this.error(token.start, `expected ${what}, found ${describe(token)}`)
    return this.next()
  }

  ident(what = 'a name'): Token {
    const token = this.peek()
    if (token.type !== 'ident') this.error(token.start, `expected ${what}, found ${describe(token)}`)
    return this.next()
  }

  // ---- file structure

  /**
   * File scope: `rules_version` (at most once, before the service), `function` declarations (visible in the
   * service, shadowed by its functions of the same name) and one `service` block, in any order.
   */
  parseFile(): RulesFile {
    let version: '1' | '2' | null = null
    const globals: FunctionDecl[] = []
    let service: { name: RulesFile['service']; functions: FunctionDecl[]; matches: MatchBlock[] } | null = null
    for (;;) {
      const token = this.peek()
      if (token.type === 'eof') break
      if (this.is('rules_version')) {
        if (version !== null) this.error(token.start, 'rules_version is already set')
        if (service) this.error(token.start, 'rules_version must come before the service block')
        this.next()
        this.expect('=')
        const value = this.peek()
        if (value.type !== 'string' || (value.value !== '1' && value.value !== '2'))
          this.error(value.start, "rules_version must be '1' or '2'")
        version = value.value as '1' | '2'
        this.next()
        this.accept(';')
      } else if (this.is('function')) globals.push(this.parseFunction())
      else if (this.is('service')) {
        if (service) this.error(token.start, 'only one service per rules file is supported')
        service = this.parseService(version ?? '1')
      } else if (service) this.error(token.start, `unexpected ${describe(token)} after the service block`)
      else this.error(token.start, `expected 'service', found ${describe(token)}`)
    }
    if (!service) this.error(this.peek().start, "expected 'service', found end of file")
    return {
      version: version ?? '1',
      service: service.name,
      globals,
      functions: service.functions,
      matches: service.matches,
    }
  }

  private parseService(version: '1' | '2'): {
    name: RulesFile['service']
    functions: FunctionDecl[]
    matches: MatchBlock[]
  } {
    this.expect('service', "'service'")
    const nameStart = this.peek().start
    let name = this.ident('a service name').text
    while (this.accept('.')) name += `.${this.ident('a service name').text}`
    if (name !== 'cloud.firestore' && name !== 'firebase.storage')
      this.error(nameStart, `unsupported service ${name} (expected cloud.firestore or firebase.storage)`)
    this.expect('{')
    const functions: FunctionDecl[] = []
    const matches: MatchBlock[] = []
    while (!this.accept('}')) {
      const token = this.peek()
      if (this.is('function')) functions.push(this.parseFunction())
      else if (this.is('match')) matches.push(this.parseMatch(version))
      else this.error(token.start, `expected 'match', 'function' or '}', found ${describe(token)}`)
    }
    return { name, functions, matches }
  }

  private parseFunction(): FunctionDecl {
    const keyword = this.next()
    const name = this.ident('a function name').text
    this.expect('(')
    const params: string[] = []
    if (!this.accept(')')) {
      do {
        const param = this.ident('a parameter name')
        if (params.includes(param.text)) this.errorAt(param, `duplicate parameter ${param.text}`)
        params.push(param.text)
      } while (this.accept(','))
      this.expect(')')
    }
    this.expect('{')
    const lets: { name: string; value: Expr }[] = []
    while (this.is('let')) {
      this.next()
      const binding = this.ident('a variable name')
      if (lets.some((l) => l.name === binding.text) || params.includes(binding.text))
        this.errorAt(binding, `${binding.text} is already defined`)
      this.expect('=')
      const value = this.parseExpr()
      this.endStatement()
      lets.push({ name: binding.text, value })
    }
    if (lets.length > 10) this.errorAt(keyword, 'a function may have at most 10 let bindings')
    this.expect('return', "'let' or 'return'")
    const body = this.parseExpr()
    this.endStatement()
    this.expect('}')
    return { name, params, lets, body, line: keyword.line, col: keyword.col }
  }

  private endStatement(): void {
    if (!this.accept(';') && !this.is('}')) this.expect(';')
  }

  private parseMatch(version: '1' | '2'): MatchBlock {
    const keyword = this.next()
    const segments = this.parsePattern(version)
    this.expect('{')
    const block: MatchBlock = { segments, functions: [], allows: [], matches: [], line: keyword.line, col: keyword.col }
    while (!this.accept('}')) {
      const token = this.peek()
      if (this.is('function')) block.functions.push(this.parseFunction())
      else if (this.is('match')) block.matches.push(this.parseMatch(version))
      else if (this.is('allow')) block.allows.push(this.parseAllow())
      else this.error(token.start, `expected 'allow', 'match', 'function' or '}', found ${describe(token)}`)
    }
    return block
  }

  private parsePattern(version: '1' | '2'): Segment[] {
    const first = this.peek()
    if (!this.is('/')) this.error(first.start, `expected a path starting with '/', found ${describe(first)}`)
    this.rewindTo(first)
    const src = this.src
    const segments: Segment[] = []
    while (src[this.pos] === '/') {
      this.pos++
      const start = this.pos
      if (src[this.pos] === '{') {
        const close = src.indexOf('}', this.pos)
        const inner = close < 0 ? '' : src.slice(this.pos + 1, close)
        const m = /^([A-Za-z_][A-Za-z0-9_]*)(=\*\*)?$/.exec(inner)
        if (!m) this.error(start, 'invalid wildcard: expected {name} or {name=**}')
        const name = m[1] as string
        if (m[2]) {
          if (segments.some((s) => s.kind === 'rest'))
            this.error(start, 'only one recursive wildcard is allowed per match')
          segments.push({ kind: 'rest', name })
        } else segments.push({ kind: 'var', name })
        this.pos = close + 1
      } else {
        while (this.pos < src.length && /[^\s/{}()$;,]/.test(src[this.pos] as string)) this.pos++
        // `(default)` is a literal segment, as in `/databases/(default)/documents`.
        if (src.startsWith('(default)', start) && this.pos === start) this.pos += '(default)'.length
        const text = src.slice(start, this.pos)
        if (text === '') this.error(start, 'empty path segment')
        segments.push({ kind: 'literal', text })
      }
    }
    const restIndex = segments.findIndex((s) => s.kind === 'rest')
    if (version === '1' && restIndex >= 0 && restIndex !== segments.length - 1)
      this.errorAt(first, 'in rules_version 1 a recursive wildcard must be the last segment')
    return segments
  }

  private parseAllow(): Allow {
    const keyword = this.next()
    const methods: Method[] = []
    do {
      const token = this.ident('a method (get, list, create, update, delete, read, write)')
      if (!METHODS.has(token.text)) this.errorAt(token, `unknown method ${token.text}`)
      methods.push(token.text as Method)
    } while (this.accept(','))
    let condition: Expr | null = null
    if (this.accept(':')) {
      this.expect('if', "'if'")
      condition = this.parseExpr()
    }
    this.endStatement()
    return { methods, condition, line: keyword.line, col: keyword.col }
  }

  // ---- expressions

  parseExpr(): Expr {
    if (++this.depth > MAX_DEPTH) this.error(this.peek().start, 'expression nested too deeply')
    try {
      return this.parseTernary()
    } finally {
      this.depth--
    }
  }

  private parseTernary(): Expr {
    const test = this.parseBinary(0)
    if (!this.is('?')) return test
    this.next()
    const then = this.parseExpr()
    this.expect(':')
    const otherwise = this.parseExpr()
    return { kind: 'ternary', test, then, otherwise, line: test.line, col: test.col }
  }

  private static readonly LEVELS: string[][] = [
    ['||'],
    ['&&'],
    ['==', '!='],
    ['<', '<=', '>', '>=', 'in', 'is'],
    ['+', '-'],
    ['*', '/', '%'],
  ]

  private parseBinary(level: number): Expr {
    if (level >= Parser.LEVELS.length) return this.parseUnary()
    const ops = Parser.LEVELS[level] as string[]
    let left = this.parseBinary(level + 1)
    for (;;) {
      const token = this.peek()
      if (!((token.type === 'punct' || token.type === 'ident') && ops.includes(token.text))) return left
      this.next()
      if (token.text === 'is') {
        const type = this.ident('a type name')
        if (!TYPE_NAMES.has(type.text)) this.errorAt(type, `unknown type ${type.text}`)
        left = { kind: 'is', operand: left, type: type.text, line: token.line, col: token.col }
        continue
      }
      const right = this.parseBinary(level + 1)
      left = { kind: 'binary', op: token.text as BinaryOp, left, right, line: token.line, col: token.col }
    }
  }

  private parseUnary(): Expr {
    const token = this.peek()
    if (this.is('!') || this.is('-')) {
      this.next()
      if (++this.depth > MAX_DEPTH) this.error(token.start, 'expression nested too deeply')
      try {
        const operand = this.parseUnary()
        if (
          token.text === '-' &&
          operand.kind === 'literal' &&
          typeof operand.value === 'bigint' &&
          operand.value > 0n
        ) {
          return { ...operand, value: -operand.value, line: token.line, col: token.col }
        }
        return { kind: 'unary', op: token.text as '!' | '-', operand, line: token.line, col: token.col }
      } finally {
        this.depth--
      }
    }
    return this.parsePostfix()
  }

  private parsePostfix(): Expr {
    let expr = this.parsePrimary()
    for (;;) {
      const token = this.peek()
      if (this.is('.')) {
        this.next()
        const name = this.ident('a member name')
        expr = { kind: 'member', target: expr, name: name.text, line: name.line, col: name.col }
      } else if (this.is('[')) {
        this.next()
        const from = this.is(':') ? null : this.parseExpr()
        if (this.accept(':')) {
          const to = this.is(']') ? null : this.parseExpr()
          this.expect(']')
          expr = { kind: 'slice', target: expr, from, to, line: token.line, col: token.col }
        } else {
          this.expect(']')
          expr = { kind: 'index', target: expr, index: from as Expr, line: token.line, col: token.col }
        }
      } else if (this.is('(')) {
        this.next()
        const args = this.parseList(')')
        expr = { kind: 'call', callee: expr, args, line: expr.line, col: expr.col }
      } else return expr
    }
  }

  private parseList(close: string): Expr[] {
    const items: Expr[] = []
    if (this.accept(close)) return items
    do {
      if (this.is(close)) break
      items.push(this.parseExpr())
    } while (this.accept(','))
    this.expect(close)
    return items
  }

  private parsePrimary(): Expr {
    const token = this.peek()
    const pos = { line: token.line, col: token.col }
    switch (token.type) {
      case 'int':
      case 'float':
      case 'string':
      case 'bytes':
        this.next()
        return { kind: 'literal', value: token.value as bigint, ...pos }
      case 'ident':
        this.next()
        if (token.text === 'true' || token.text === 'false')
          return { kind: 'literal', value: token.text === 'true', ...pos }
        if (token.text === 'null') return { kind: 'literal', value: null, ...pos }
        return { kind: 'ident', name: token.text, ...pos }
      case 'eof':
        return this.error(token.start, 'unexpected end of file in an expression')
    }
    if (this.accept('(')) {
      const inner = this.parseExpr()
      this.expect(')')
      return inner
    }
    if (this.accept('[')) return { kind: 'list', items: this.parseList(']'), ...pos }
    if (this.accept('{')) {
      const entries: { key: Expr; value: Expr }[] = []
      if (!this.accept('}')) {
        do {
          if (this.is('}')) break
          const key = this.parseExpr()
          this.expect(':')
          entries.push({ key, value: this.parseExpr() })
        } while (this.accept(','))
        this.expect('}')
      }
      return { kind: 'map', entries, ...pos }
    }
    if (this.is('/')) return this.parsePathLiteral(token)
    return this.error(token.start, `unexpected ${describe(token)} in an expression`)
  }

  /** `/databases/$(database)/documents/users/$(uid)`: scanned raw, since `/` is also division. */
  private parsePathLiteral(first: Token): Expr {
    this.rewindTo(first)
    const src = this.src
    const parts: PathPart[][] = []
    while (src[this.pos] === '/') {
      this.pos++
      const pieces: PathPart[] = []
      for (;;) {
        const start = this.pos
        if (src.startsWith('$(', start) || (src[start] === '(' && !src.startsWith('(default)', start))) {
          this.pos += src[start] === '$' ? 2 : 1
          this.lookahead = null
          const expr = this.parseExpr()
          const close = this.peek()
          if (!this.is(')'))
            this.error(close.start, `expected ')' to close the interpolation, found ${describe(close)}`)
          this.pos = close.end
          this.lookahead = null
          pieces.push({ expr })
          continue
        }
        if (src.startsWith('(default)', start)) this.pos += '(default)'.length
        while (this.pos < src.length && /[A-Za-z0-9_\-.~%@]/.test(src[this.pos] as string)) this.pos++
        if (this.pos === start) break
        pieces.push({ text: src.slice(start, this.pos) })
      }
      if (pieces.length === 0) this.error(this.pos, 'empty path segment')
      parts.push(pieces)
    }
    this.lookahead = null
    return {
      kind: 'path',
      parts: parts.map((pieces) => (pieces.length === 1 ? (pieces[0] as PathPart) : { expr: concat(pieces, first) })),
      line: first.line,
      col: first.col,
    }
  }
}

/** Joins the pieces of one path segment (`x$(y)`) into a string expression. */
function concat(pieces: PathPart[], pos: Pos): Expr {
  const exprs: Expr[] = pieces.map((piece) =>
    'text' in piece
      ? { kind: 'literal', value: piece.text, line: pos.line, col: pos.col }
      : ({
          kind: 'call',
          callee: { kind: 'ident', name: 'string', line: pos.line, col: pos.col },
          args: [piece.expr],
          line: pos.line,
          col: pos.col,
        } as Expr),
  )
  return exprs.reduce((left, right) => ({ kind: 'binary', op: '+', left, right, line: pos.line, col: pos.col }))
}

function describe(token: Token): string {
  if (token.type === 'eof') return 'end of file'
  return `'${token.text.slice(0, 40)}'`
}

export function parseFile(
  source: string,
  fileName: string,
): { file: RulesFile; errorAt: (pos: Pos, what: string) => never } {
  const parser = new Parser(source, fileName)
  const file = parser.parseFile()
  return { file, errorAt: (pos, what) => parser.errorAt(pos, what) }
}

/** Parses a lone expression (tests and tools). */
export function parseExpression(
  source: string,
  fileName = 'expression',
): { expr: Expr; errorAt: (pos: Pos, what: string) => never } {
  const parser = new Parser(source, fileName)
  const expr = parser.parseExpr()
  const rest = parser.peek()
  if (rest.type !== 'eof') parser.error(rest.start, `unexpected ${describe(rest)} after the expression`)
  return { expr, errorAt: (pos, what) => parser.errorAt(pos, what) }
}
