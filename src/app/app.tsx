import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { loadConfig, type StudioConfig } from './config';
import { Studio } from './studio';

// The API client applies spec 7's retry policy itself, so React Query never retries on top of it.
const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
});

export function App() {
  const [config, setConfig] = useState<StudioConfig | null>(null);
  useEffect(() => {
    void loadConfig().then(setConfig);
  }, []);
  return (
    <QueryClientProvider client={queryClient}>
      {config ? <Studio config={config} /> : <div className="min-h-dvh bg-slate-50 dark:bg-slate-950" />}
    </QueryClientProvider>
  );
}
