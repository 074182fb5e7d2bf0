import { useEffect, useState } from 'react';
import { loadConfig, type StudioConfig } from './config';
import { Studio } from './studio';
import { UpdatePrompt } from './update-prompt';

export function App() {
  const [config, setConfig] = useState<StudioConfig | null>(null);
  useEffect(() => {
    void loadConfig().then(setConfig);
  }, []);
  // Until /config.json is read, the connect screen as prerendered into index.html (scripts/prerender.ts).
  return (
    <>
      <Studio config={config} />
      <UpdatePrompt />
    </>
  );
}
