import { useLingui } from '@lingui/react/macro';
import { Languages } from 'lucide-react';
import { useId } from 'react';
import { chooseLanguage, useLanguage } from '../lib/i18n/i18n';
import { isLanguage, LANGUAGES } from '../lib/i18n/languages';
import { inputClass } from './field';

/**
 * "Language": the studio's language, each named in itself, remembered on this device (lib/i18n). The
 * globe icon says what the list is to someone who cannot read the language it is in.
 */
export function LanguageChoice({ className }: { className?: string }) {
  const { t } = useLingui();
  const language = useLanguage();
  const id = useId();
  return (
    <div className={`flex flex-wrap items-center justify-between gap-2 ${className ?? ''}`}>
      <label
        htmlFor={id}
        className="flex items-center gap-1.5 text-sm font-medium text-slate-800 dark:text-slate-200"
      >
        <Languages className="size-4" aria-hidden="true" />
        {t`Language`}
      </label>
      <select
        id={id}
        className={`${inputClass} w-auto`}
        value={language === 'pseudo' ? 'en' : language}
        onChange={(e) => {
          if (isLanguage(e.target.value)) void chooseLanguage(e.target.value);
        }}
      >
        {LANGUAGES.map((l) => (
          <option key={l.tag} value={l.tag} lang={l.tag}>
            {l.name}
          </option>
        ))}
      </select>
    </div>
  );
}
