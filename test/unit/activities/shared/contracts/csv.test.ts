import test from 'ava';
import fc from 'fast-check';
import { csvCell, csvDocument } from '../../../../../activities/shared/contracts/csv';

// Every CSV the hub writes goes through csvCell: a cell a spreadsheet would run as a formula (OWASP, CSV Injection) is
// shown as text instead, and a plain number, negative amounts included, stays a number.

test('a cell that would start a formula (= + - @ tab, carriage return) is prefixed with a quote so the spreadsheet shows it as text', (t) => {
  t.is(csvCell('=B1234'), "'=B1234");
  t.is(csvCell('+cmd'), "'+cmd");
  t.is(csvCell('-2+3'), "'-2+3");
  t.is(csvCell('@SUM(A1:A9)'), "'@SUM(A1:A9)");
  t.is(csvCell('\t=1'), "'\t=1");
  t.is(csvCell('\r=1'), `"'\r=1"`, 'a carriage return also calls for RFC 4180 quotes');
  t.is(csvCell('=HYPERLINK("http://x","y")'), `"'=HYPERLINK(""http://x"",""y"")"`, 'quotes inside are doubled after the prefix');
  t.is(csvCell('-'), "'-");
  t.is(csvCell('-1e3'), "'-1e3", 'an exponent is no plain decimal');
});

test('a plain number is left a number: a negative net settlement amount stays -10.5', (t) => {
  t.is(csvCell('-10.5'), '-10.5');
  t.is(csvCell('-12.75'), '-12.75');
  t.is(csvCell('0'), '0');
  t.is(csvCell(-3), '-3');
  t.is(csvCell(42), '42');
  t.is(csvCell('10000000000000000.0002'), '10000000000000000.0002');
});

test('other cells are written as RFC 4180 says: quoted only when they hold a comma, a quote or a line break', (t) => {
  t.is(csvCell('payerfsp'), 'payerfsp');
  t.is(csvCell('a,b'), '"a,b"');
  t.is(csvCell('say "hi"'), '"say ""hi"""');
  t.is(csvCell('two\nlines'), '"two\nlines"');
  t.is(csvCell('a=b'), 'a=b', 'only the first character starts a formula');
});

test('a document is its rows, each cell through csvCell, each row ended by CRLF', (t) => {
  t.is(
    csvDocument([
      ['participant', 'netSettlementAmount'],
      ['=B1234', '-10.5'],
      ['dfspb', '10.5'],
    ]),
    "participant,netSettlementAmount\r\n'=B1234,-10.5\r\ndfspb,10.5\r\n",
  );
  t.is(csvDocument([]), '');
});

test('whatever the text, the cell a spreadsheet reads back is the text itself, or it with a leading quote where it would start a formula', (t) => {
  const unquoted = (cell: string) => (cell.startsWith('"') ? cell.slice(1, -1).replace(/""/g, '"') : cell);
  const formulaStarts = fc.constantFrom('=', '+', '-', '@', '\t', '\r').chain((start) => fc.string().map((rest) => start + rest));
  fc.assert(
    fc.property(fc.oneof(fc.string(), formulaStarts), (text) => {
      const read = unquoted(csvCell(text));
      const runnable = /^[=+\-@\t\r]/.test(read) && !/^-?[0-9]+(\.[0-9]+)?$/.test(read);
      return !runnable && (read === text || read === `'${text}`);
    }),
  );
  t.pass();
});
