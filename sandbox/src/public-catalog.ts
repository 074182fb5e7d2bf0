// The sandbox's one public entry for the studio: its catalog, which the studio's tests read through the
// studio's own schemas (real definitions, so a fixture cannot drift from what the sandbox serves). The
// studio imports nothing else of sandbox/ (eslint.config.js).
export { aiTools } from './core/catalog/ai-tools';
export { models } from './core/catalog/models';
export { templates } from './core/catalog/templates';
