import { z } from 'zod/mini';

// The Content-Security-Policy allows no eval: zod parses without compiling code and never probes for
// it. Imported first by main.tsx, so it is set before any module parses anything.
z.config({ jitless: true });
