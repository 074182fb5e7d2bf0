import { parse, type Token } from '@messageformat/parser';
import pseudolocale from 'pseudolocale';

// The pseudo-locale (docs/i18n.md): every message accented and 40 % longer, its placeholders, plural
// and select forms and rich-text tags left as they are. The e2e checks run the studio in it, so English
// that escaped the catalogs, and a label cut off or overflowing in a longer language, show at once.
// Written by `npm run i18n:extract` into src/locales/pseudo.po (scripts/i18n/extract.ts).

/** Rich-text tags of a message (`<0>`, `</0>`, `<0/>`) stay as they are. */
const TAG = /<\/?\d+\/?>/g;
const MARK = '\u0001';

function pseudoText(text: string): string {
  if (!text.trim()) return text;
  const marked = text.replace(TAG, (tag) => `${MARK}${tag}${MARK}`);
  return (
    pseudolocale(marked, { delimiter: MARK, prepend: '', append: '', extend: 0.4, extendCharacter: '~' })
      .split(MARK)
      .join('')
      // The padding of a long message breaks as words do (a real language's longer text is words, not
      // one unbreakable run).
      .replace(/~{7,}/g, (run) => run.match(/~{1,6}/g)!.join(' '))
  );
}

/** ICU text as written in a message: braces quoted (a lone apostrophe stays literal). */
const escapeText = (text: string, inPlural: boolean) =>
  text.replace(inPlural ? /[{}#]/g : /[{}]/g, (c) => `'${c}'`);

function write(tokens: Token[], inPlural: boolean): string {
  return tokens
    .map((token) => {
      switch (token.type) {
        case 'content':
          return escapeText(pseudoText(token.value), inPlural);
        case 'argument':
          return `{${token.arg}}`;
        case 'function':
          return `{${token.arg}, ${token.key}${token.param ? `, ${token.param.map((p) => (p.type === 'content' ? p.value : '')).join('')}` : ''}}`;
        case 'octothorpe':
          return '#';
        case 'plural':
        case 'select':
        case 'selectordinal': {
          const offset = token.type !== 'select' && token.pluralOffset ? ` offset:${token.pluralOffset}` : '';
          const cases = token.cases
            .map((c) => `${c.key} {${write(c.tokens, token.type !== 'select' || inPlural)}}`)
            .join(' ');
          return `{${token.arg}, ${token.type},${offset} ${cases}}`;
        }
        default:
          throw new Error(`Unexpected token in a message: ${JSON.stringify(token)}`);
      }
    })
    .join('');
}

/** `message` in the pseudo-locale. */
export function pseudoMessage(message: string): string {
  return write(parse(message), false);
}
