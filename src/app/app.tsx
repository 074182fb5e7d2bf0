import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { useEffect, useState } from 'react';
import { loadConfig, type StudioConfig } from './config';
import { Studio } from './studio';

export function App() {
  const [config, setConfig] = useState<StudioConfig | null>(null);
  useEffect(() => {
    void loadConfig().then(setConfig);
  }, []);
  // Until /config.json is read, the connect screen as prerendered into index.html (scripts/prerender.ts).
  // Every message follows the studio's language (src/lib/i18n/i18n.ts activates it before the first render).
  return (
    <I18nProvider i18n={i18n}>
      <Studio config={config} />
    </I18nProvider>
  );
}
