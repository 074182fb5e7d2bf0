import type { DescribeLanguage } from '../../../../contract/describe';
import type { Phrases } from './phrases';
import { en } from './phrases-en';
import { zh } from './phrases-zh';
import { zhTw } from './phrases-zh-tw';
import { ja } from './phrases-ja';
import { fr } from './phrases-fr';
import { es } from './phrases-es';
import { de } from './phrases-de';
import { pt } from './phrases-pt';
import { ru } from './phrases-ru';

/** One phrase table per language describe-image speaks. */
export const PHRASES: Record<DescribeLanguage, Phrases> = {
  en,
  zh,
  'zh-TW': zhTw,
  ja,
  fr,
  es,
  de,
  pt,
  ru,
};
