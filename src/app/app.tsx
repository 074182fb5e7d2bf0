import { useEffect, useState } from 'react';
import { loadConfig, type StudioConfig } from './config';
import { Studio } from './studio';

export function App() {
  const [config, setConfig] = useState<StudioConfig | null>(null);
  useEffect(() => {
    void loadConfig().then(setConfig);
  }, []);
  // Until /config.json is read, the connect screen as prerendered into index.html (scripts/prerender.ts).
  return <Studio config={config} />;
}
