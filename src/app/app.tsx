import { useEffect, useState } from 'react';
import { loadConfig, type StudioConfig } from './config';
import { Studio } from './studio';

export function App() {
  const [config, setConfig] = useState<StudioConfig | null>(null);
  useEffect(() => {
    void loadConfig().then(setConfig);
  }, []);
  return config ? <Studio config={config} /> : <div className="min-h-dvh bg-slate-50 dark:bg-slate-950" />;
}
