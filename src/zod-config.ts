import { z } from 'zod/mini';

// The Content-Security-Policy allows no eval: zod parses without compiling code and never probes for
// it. zod decides when a schema is built, so this is imported first by every chunk that brings the
// schemas in: the first screen has none (total blocking time); key-check.ts, config-schema.ts and
// connected-studio.tsx, the entries loaded on the way to the studio, import it before anything else.
z.config({ jitless: true });
