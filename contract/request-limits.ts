// api-notes §4 POST /tasks and api-notes §8 "Other limits": the limits on a request's params that hold for
// every model. The studio's form refuses what the service would (src/features/forms/param-rules.ts) and
// the sandbox refuses it with 400 invalid_payload (sandbox/src/core/params.ts).

interface ParamsLimits {
  /** Keys in `params`. */
  readonly maxKeys: number;
  /** Characters in a string value, or in a string item of an array. */
  readonly maxStringLength: number;
  /** Items in an array value. */
  readonly maxArrayItems: number;
  /** Characters in `params.prompt`; a model may set a lower promptMaxLength (api-notes §2 "Model"). */
  readonly maxPromptLength: number;
}

export const PARAMS_LIMITS: ParamsLimits = {
  maxKeys: 50,
  maxStringLength: 2_000,
  maxArrayItems: 20,
  maxPromptLength: 10_000,
};

/** api-notes §4 POST /tasks and §8: the Idempotency-Key header's length, in characters. */
export const IDEMPOTENCY_KEY_LENGTH = { min: 1, max: 256 } as const;
