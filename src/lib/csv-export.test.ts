import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv-export';

describe('csv', () => {
  it('quotes fields with commas, quotes and line breaks, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a, b')).toBe('"a, b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField(' padded ')).toBe('" padded "');
  });

  it('writes numbers as they are and empties for nothing', () => {
    expect(csvField(-3.5)).toBe('-3.5');
    expect(csvField(0)).toBe('0');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
  });

  it('guards text that a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('-2')).toBe("'-2");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\tcmd')).toBe("'\tcmd");
    // A carriage return first is guarded, then quoted (it is a line break).
    expect(csvField('\rx')).toBe(`"'\rx"`);
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField('x-1')).toBe('x-1');
  });

  it('joins rows with CRLF, header first', () => {
    expect(toCsv(['a', 'b'], [[1, 'x,y']])).toBe('a,b\r\n1,"x,y"\r\n');
  });
});
