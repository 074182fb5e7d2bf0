// api-notes §4 POST /tasks and api-notes §8 "Other limits": the limits on a request's params that hold for
// every model. The studio's form refuses what the service would (src/features/forms/param-rules.ts) and
// the sandbox refuses it with 400 invalid_payload (sandbox/src/core/params.ts).

export const PARAMS_LIMITS = {
  /** Keys in `params`. */
  maxKeys: 50,
  /** Characters in a string value, or in a string item of an array. */
  maxStringLength: 2_000,
  /** Items in an array value. */
  maxArrayItems: 20,
  /** Characters in `params.prompt`; a model may set a lower promptMaxLength (api-notes §2 "Model"). */
  maxPromptLength: 10_000,
} as const;
