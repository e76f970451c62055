// A test SMTP server for `make test-pilot` only (infra/docker/pilot/test.compose.yml): it accepts
// every mail without TLS or AUTH and prints each one as one line `MAIL {"from","to","data"}` on
// stdout, where the test reads it (`compose logs smtp-test`). Never part of the pilot users run.
import { createServer } from 'node:net'

const port = Number(process.env.SMTP_PORT || 2525)
createServer((socket) => {
  socket.setEncoding('utf8')
  const mail: { from: string; to: string[]; data: string } = { from: '', to: [], data: '' }
  let buffer = ''
  let inData = false
  const reply = (line: string) => socket.write(`${line}\r\n`)
  reply('220 smtp-test ESMTP')
  socket.on('data', (chunk) => {
    buffer += chunk
    let index = buffer.indexOf('\r\n')
    while (index >= 0) {
      const line = buffer.slice(0, index)
      buffer = buffer.slice(index + 2)
      if (inData) {
        if (line === '.') {
          inData = false
          console.log(`MAIL ${JSON.stringify(mail)}`)
          reply('250 OK queued')
        } else mail.data += `${line.startsWith('..') ? line.slice(1) : line}\r\n`
      } else {
        const verb = line.slice(0, 4).toUpperCase()
        if (verb === 'EHLO' || verb === 'HELO') reply('250 smtp-test')
        else if (verb === 'MAIL') {
          mail.from = /<([^>]*)>/.exec(line)?.[1] ?? ''
          mail.to = []
          mail.data = ''
          reply('250 OK')
        } else if (verb === 'RCPT') {
          mail.to.push(/<([^>]*)>/.exec(line)?.[1] ?? '')
          reply('250 OK')
        } else if (verb === 'DATA') {
          inData = true
          reply('354 End data with <CR><LF>.<CR><LF>')
        } else if (verb === 'QUIT') {
          reply('221 Bye')
          socket.end()
        } else if (verb === 'RSET' || verb === 'NOOP') reply('250 OK')
        else reply('502 Command not implemented')
      }
      index = buffer.indexOf('\r\n')
    }
  })
  socket.on('error', () => {})
}).listen(port, '0.0.0.0', () => console.log(`smtp-test: listening on ${port}`))
