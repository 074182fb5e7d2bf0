import { useEffect, useState } from 'react';
import { loadConfig, type StudioConfig } from './config';

export function App() {
  const [config, setConfig] = useState<StudioConfig | null>(null);
  useEffect(() => {
    void loadConfig().then(setConfig);
  }, []);

  return (
    <div className="min-h-screen bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <header className="border-b border-slate-200 px-6 py-4 dark:border-slate-800">
        <h1 className="text-xl font-semibold tracking-tight">Media Studio</h1>
      </header>
      <main className="mx-auto max-w-3xl px-6 py-10">
        <p className="text-lg">Generate images, video and audio with hosted models.</p>
        <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
          API base URL: <code data-testid="default-base-url">{config?.defaultBaseUrl ?? '…'}</code>
        </p>
      </main>
    </div>
  );
}
