// The model the e2e gallery tests and the benches seed histories with: cheap and fast in the sandbox.
// No imports: the benches (outside Playwright Test) use it too.

export const POP = { interfaceId: 'pixelmoss-pop', versionId: 'pixelmoss-pop-1' };

/** The history entry's meta of a Pop task, as the studio records it when it submits one. */
export const popMeta = (quote: { estimatedSeconds: number | null; credits: number }) => ({
  title: 'Pop Diffusion',
  subtitle: 'Pop 1',
  kind: 'model',
  mediaType: 'image',
  category: 'image/default',
  modelId: POP.interfaceId,
  versionId: POP.versionId,
  estimatedSeconds: quote.estimatedSeconds,
  quotedCredits: quote.credits,
});
