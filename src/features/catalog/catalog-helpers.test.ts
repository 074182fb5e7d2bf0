import { describe, expect, it } from 'vitest';
import { CATEGORIES, categoryKey } from '../../../contract/category';
import { matchesSearch, searchTerms } from './catalog-search';
import { CATEGORY_GROUPS, categoryLabel, isRankedCategory } from '../../model/category-labels';
import { displayText, safeMediaUrl } from '../../lib/untrusted-text';
import { isVideoUrl } from './video-url';

describe('catalog search', () => {
  it('needs every word somewhere in the fields, ignoring case', () => {
    const fields = ['Lumen Canvas', 'Lumen Labs', 'text-to-image'];
    expect(matchesSearch(fields, searchTerms(''))).toBe(true);
    expect(matchesSearch(fields, searchTerms('  LUMEN  '))).toBe(true);
    expect(matchesSearch(fields, searchTerms('labs text-to'))).toBe(true);
    expect(matchesSearch(fields, searchTerms('lumen video'))).toBe(false);
    expect(matchesSearch([undefined, 'x'], searchTerms('x'))).toBe(true);
  });
});

describe('category labels', () => {
  it('names all 13 categories readably, grouped by type in spec order', () => {
    const keys = CATEGORY_GROUPS.flatMap((g) => g.keys);
    expect(keys).toEqual(CATEGORIES.map(categoryKey));
    expect(categoryLabel('image/edit-image')).toBe('Image · Edit image');
    expect(categoryLabel('audio/text-to-speech')).toBe('Audio · Text to speech');
    expect(new Set(keys.map(categoryLabel)).size).toBe(13);
    expect(categoryLabel('image/unknown')).toBe('image/unknown');
  });

  it('ranks every category but image/default and video/text-ref (api-notes §1)', () => {
    expect(CATEGORIES.map(categoryKey).filter((k) => !isRankedCategory(k))).toEqual([
      'image/default',
      'video/text-ref',
    ]);
  });
});

describe('untrusted text and URLs', () => {
  it('drops bidi overrides but keeps right-to-left letters', () => {
    expect(displayText('download \u202Egpj.exe\u202C now')).toBe('download gpj.exe now');
    expect(displayText('דיוקן קולנועי')).toBe('דיוקן קולנועי');
  });

  it('puts only http(s) URLs in src', () => {
    expect(safeMediaUrl('https://cdn.example/a.png')).toBe('https://cdn.example/a.png');
    expect(safeMediaUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeMediaUrl('data:image/png;base64,AAAA')).toBeUndefined();
    expect(safeMediaUrl('')).toBeUndefined();
  });

  it('tells video covers by the path, not the query', () => {
    expect(isVideoUrl('https://cdn.example/t/a.mp4')).toBe(true);
    expect(isVideoUrl('https://cdn.example/t/a.WEBM?x=1')).toBe(true);
    expect(isVideoUrl('https://cdn.example/t/a.jpg?f=.mp4')).toBe(false);
    expect(isVideoUrl('https://cdn.example/t/a.png')).toBe(false);
    expect(isVideoUrl(undefined)).toBe(false);
  });
});
