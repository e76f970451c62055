import '../../test/setup.ts'
import { render, screen } from '@testing-library/react'
import { expect, test } from 'vitest'
import { TableScroll } from './table-scroll.tsx'

test('a wide table sits in a named region that the keyboard can reach to scroll it', () => {
  render(
    <TableScroll label="Registreringer">
      <table>
        <tbody>
          <tr>
            <th scope="row">Anna</th>
            <td>OK</td>
          </tr>
        </tbody>
      </table>
    </TableScroll>,
  )
  const region = screen.getByRole('region', { name: 'Registreringer' })
  expect(region).toHaveClass('table-scroll')
  expect(region).toHaveAttribute('tabindex', '0')
  expect(region).toContainElement(screen.getByRole('table'))
})
