import { DESCRIBE_LANGUAGES, type DescribeLanguage, type ImageDescription } from '../../../contract/describe';
import { formatCredits } from '../../lib/format';

// What the Describe image dialog shows, as data: the text fields of an image description with their
// labels in reading order, and the languages of POST /describe-image by their own names.

/** The text fields of an image description (everything but the charge). */
export type DescriptionField = Exclude<keyof ImageDescription, 'credits'>;

/** A Record, so a field added to the schema's type without a label is a compile error. */
export const FIELD_LABELS: Record<DescriptionField, string> = {
  overallDescription: 'Overall description',
  subject: 'Subject',
  composition: 'Composition',
  style: 'Style',
  lighting: 'Lighting',
  palette: 'Palette',
  mood: 'Mood',
  camera: 'Camera',
};

/** Reading order: the overall description first, camera (often null) last. */
export const FIELD_ORDER: readonly DescriptionField[] = [
  'overallDescription',
  'subject',
  'composition',
  'style',
  'lighting',
  'palette',
  'mood',
  'camera',
];

export interface DescriptionRow {
  field: DescriptionField;
  label: string;
  /** The API's text, untouched (untrusted: render it as a React text child only). */
  text: string;
}

/** Every field to show, in order; camera only when the service gave one (it is null for e.g. drawings). */
export function descriptionRows(description: ImageDescription): DescriptionRow[] {
  const rows: DescriptionRow[] = [];
  for (const field of FIELD_ORDER) {
    const text = description[field];
    if (text === null) continue;
    rows.push({ field, label: FIELD_LABELS[field], text });
  }
  return rows;
}

/** Each language under its own name (a reader of Japanese looks for 日本語, not "Japanese"). */
const LANGUAGE_NAMES: Record<DescribeLanguage, string> = {
  en: 'English',
  zh: '中文 (简体)',
  'zh-TW': '中文 (繁體)',
  ja: '日本語',
  fr: 'Français',
  es: 'Español',
  de: 'Deutsch',
  pt: 'Português',
  ru: 'Русский',
};

/** api-notes §4: the language is optional and defaults to English; the studio always sends it. */
export const DEFAULT_LANGUAGE: DescribeLanguage = 'en';

export const LANGUAGE_OPTIONS: ReadonlyArray<{ code: DescribeLanguage; name: string }> =
  DESCRIBE_LANGUAGES.map((code) => ({ code, name: LANGUAGE_NAMES[code] }));

export const isDescribeLanguage = (value: string): value is DescribeLanguage =>
  (DESCRIBE_LANGUAGES as readonly string[]).includes(value);

/** "1 credit charged", "2 credits charged". */
export const chargedText = (credits: number): string => `${formatCredits(credits)} charged`;
