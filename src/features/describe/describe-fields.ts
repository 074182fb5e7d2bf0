import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import { DESCRIBE_LANGUAGES, type DescribeLanguage, type ImageDescription } from '../../../contract/describe';
import { formatCredits } from '../../lib/format';

// What the Describe image dialog shows, as data: the text fields of an image description with their
// labels in reading order, and the languages of POST /describe-image, named in the studio's language.

/** The text fields of an image description (everything but the charge). */
type DescriptionField = Exclude<keyof ImageDescription, 'credits'>;

/**
 * A Record, so a field added to the schema's type without a label is a compile error.
 * @internal
 */
export const FIELD_LABELS: Record<DescriptionField, MessageDescriptor> = {
  overallDescription: msg`Overall description`,
  subject: msg`Subject`,
  composition: msg`Composition`,
  style: msg`Style`,
  lighting: msg`Lighting`,
  palette: msg`Palette`,
  mood: msg`Mood`,
  camera: msg({ message: 'Camera', comment: 'the camera an image looks taken with: angle, lens, framing' }),
};

/**
 * Reading order: the overall description first, camera (often null) last.
 * @internal
 */
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

/** Every field to show, in order, labelled in the studio's language when called; camera only when the
 * service gave one (it is null for e.g. drawings). */
export function descriptionRows(description: ImageDescription): DescriptionRow[] {
  const rows: DescriptionRow[] = [];
  for (const field of FIELD_ORDER) {
    const text = description[field];
    if (text === null) continue;
    rows.push({ field, label: i18n._(FIELD_LABELS[field]), text });
  }
  return rows;
}

/**
 * The languages the service writes in, named in the studio's language like the rest of the dialog (in a
 * Japanese studio, 英語 and 日本語). Messages, as src/lib has no helper over Intl.DisplayNames.
 */
const LANGUAGE_NAMES: Record<DescribeLanguage, MessageDescriptor> = {
  en: msg`English`,
  zh: msg`Chinese (Simplified)`,
  'zh-TW': msg`Chinese (Traditional)`,
  ja: msg`Japanese`,
  fr: msg`French`,
  es: msg`Spanish`,
  de: msg`German`,
  pt: msg`Portuguese`,
  ru: msg`Russian`,
};

/** api-notes §4: the language is optional and defaults to English; the studio always sends it. */
export const DEFAULT_LANGUAGE: DescribeLanguage = 'en';

/** Each language's name is a descriptor: show it with `i18n._(name)` when the list is drawn. */
export const LANGUAGE_OPTIONS: ReadonlyArray<{ code: DescribeLanguage; name: MessageDescriptor }> =
  DESCRIBE_LANGUAGES.map((code) => ({ code, name: LANGUAGE_NAMES[code] }));

export const isDescribeLanguage = (value: string): value is DescribeLanguage =>
  (DESCRIBE_LANGUAGES as readonly string[]).includes(value);

/** "1 credit charged", "2 credits charged". */
export const chargedText = (credits: number): string => {
  const amount = formatCredits(credits);
  return t`${amount} charged`;
};
