// "Copy request" (product-notes §3 Submit): the exact request as curl and as fetch code. The key is never in
// it: the Authorization header carries the placeholder instead, which a shell expands in curl.

export const API_KEY_PLACEHOLDER = '$API_KEY';

export interface RequestDescription {
  method: 'GET' | 'POST';
  url: string;
  /** Header names as sent; Authorization holds `Bearer $API_KEY`, never the key. */
  headers: Record<string, string>;
  /** The body exactly as sent (the same serialisation the client uses), or undefined. */
  body?: string;
}

/** POSIX shell single-quoting: everything literal, a quote becomes '\''. */
const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** Double quotes so the shell expands $API_KEY; the other characters of the value are escaped. */
const shellQuoteExpandingPlaceholder = (value: string) => {
  const parts = value.split(API_KEY_PLACEHOLDER).map((part) => part.replace(/(["\\$`])/g, '\\$1'));
  return `"${parts.join(API_KEY_PLACEHOLDER)}"`;
};

export function toCurl(req: RequestDescription): string {
  const lines = [`curl -X ${req.method} ${shellQuote(req.url)}`];
  for (const [name, value] of Object.entries(req.headers)) {
    const header = `${name}: ${value}`;
    lines.push(
      `  -H ${header.includes(API_KEY_PLACEHOLDER) ? shellQuoteExpandingPlaceholder(header) : shellQuote(header)}`,
    );
  }
  if (req.body !== undefined) lines.push(`  --data-raw ${shellQuote(req.body)}`);
  return lines.join(' \\\n');
}

const indent = (text: string, spaces: number) => text.split('\n').join(`\n${' '.repeat(spaces)}`);

/** The body as readable code that evaluates to exactly the same string. */
const bodyExpression = (body: string): string => {
  try {
    const value: unknown = JSON.parse(body);
    if (JSON.stringify(value) === body) return `JSON.stringify(${indent(JSON.stringify(value, null, 2), 2)})`;
  } catch {
    // Not JSON: fall through to a plain string literal.
  }
  return JSON.stringify(body);
};

export function toFetchCode(req: RequestDescription): string {
  const headers = Object.entries(req.headers)
    .map(([name, value]) => `    ${JSON.stringify(name)}: ${JSON.stringify(value)},`)
    .join('\n');
  const lines = [
    `// Replace ${API_KEY_PLACEHOLDER} with your API key.`,
    `const response = await fetch(${JSON.stringify(req.url)}, {`,
    `  method: ${JSON.stringify(req.method)},`,
    `  headers: {`,
    headers,
    `  },`,
  ];
  if (req.body !== undefined) lines.push(`  body: ${bodyExpression(req.body)},`);
  lines.push('});', 'console.log(response.status, await response.json());');
  return lines.join('\n');
}
