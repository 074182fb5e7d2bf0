import { i18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import {
  DESCRIBE_LANGUAGES,
  ImageDescriptionSchema,
  type ImageDescription,
} from '../../../contract/describe';
import {
  chargedText,
  descriptionRows,
  FIELD_LABELS,
  FIELD_ORDER,
  isDescribeLanguage,
  LANGUAGE_OPTIONS,
} from './describe-fields';

const DESCRIPTION: ImageDescription = {
  credits: 1,
  overallDescription: 'overall',
  subject: 'subject',
  composition: 'composition',
  style: 'style',
  lighting: 'lighting',
  palette: 'palette',
  mood: 'mood',
  camera: 'camera',
};

describe('describe fields', () => {
  it('orders every text field of the schema exactly once', () => {
    const schemaFields = Object.keys(ImageDescriptionSchema.shape).filter((k) => k !== 'credits');
    expect([...FIELD_ORDER].sort()).toEqual([...schemaFields].sort());
    expect(new Set(FIELD_ORDER).size).toBe(FIELD_ORDER.length);
    expect(Object.keys(FIELD_LABELS).sort()).toEqual([...schemaFields].sort());
  });

  it('gives rows with labels in reading order, camera last', () => {
    expect(descriptionRows(DESCRIPTION).map((r) => [r.label, r.text])).toEqual([
      ['Overall description', 'overall'],
      ['Subject', 'subject'],
      ['Composition', 'composition'],
      ['Style', 'style'],
      ['Lighting', 'lighting'],
      ['Palette', 'palette'],
      ['Mood', 'mood'],
      ['Camera', 'camera'],
    ]);
  });

  it('leaves camera out when it is null, keeps empty strings', () => {
    const rows = descriptionRows({ ...DESCRIPTION, camera: null, mood: '' });
    expect(rows.map((r) => r.field)).not.toContain('camera');
    expect(rows.find((r) => r.field === 'mood')?.text).toBe('');
  });

  it('names the nine languages of the spec in the studio’s language, in the spec order', () => {
    expect(LANGUAGE_OPTIONS.map((o) => o.code)).toEqual([...DESCRIBE_LANGUAGES]);
    expect(LANGUAGE_OPTIONS.map((o) => i18n._(o.name))).toEqual([
      'English',
      'Chinese (Simplified)',
      'Chinese (Traditional)',
      'Japanese',
      'French',
      'Spanish',
      'German',
      'Portuguese',
      'Russian',
    ]);
    expect(isDescribeLanguage('zh-TW')).toBe(true);
    expect(isDescribeLanguage('zh-tw')).toBe(false);
    expect(isDescribeLanguage('it')).toBe(false);
  });

  it('says how many credits were charged', () => {
    expect(chargedText(1)).toBe('1 credit charged');
    expect(chargedText(2)).toBe('2 credits charged');
  });
});
