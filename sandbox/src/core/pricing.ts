import type { PricingRule } from './catalog/types';
import type { Params } from './params';

// api-notes §2 "Quote": final = max(minPrice, ceil(base x multiplier + surcharges + basePrice)).
// Input media duration is part of the basis, so the caller supplies what it knows of the inputs.

export interface Breakdown {
  pricingKey: string;
  base: number;
  multiplier: number;
  surcharges: number;
  basePrice: number;
  minPriceApplied: boolean;
}

export interface InputMediaFacts {
  durationSec(paramId: string): number | undefined;
  frames(paramId: string): number | undefined;
}

const round4 = (n: number) => Math.round(n * 10_000) / 10_000;

/** A table's own entry for a value a request chose ("constructor" is not an entry of any table). */
export const ownEntry = <T>(table: Record<string, T>, key: string): T | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;

/** "5", "5s", 5 -> 5; anything else -> undefined. */
export const toNumber = (v: unknown): number | undefined => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string') {
    const n = Number.parseFloat(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
};

function unitCount(rule: PricingRule, params: Params, inputs: InputMediaFacts): number {
  const u = rule.units;
  switch (u.kind) {
    case 'flat':
      return 1;
    case 'count':
      return Math.max(1, Math.floor(toNumber(u.param ? params[u.param] : undefined) ?? 1));
    case 'duration':
      return Math.max(0, toNumber(params[u.param]) ?? 0);
    case 'input_duration':
      return Math.max(0, inputs.durationSec(u.param) ?? 0);
    case 'input_frames':
      return Math.max(0, inputs.frames(u.param) ?? 0);
    case 'chars': {
      const text = params[u.param];
      return (typeof text === 'string' ? [...text].length : 0) / 1000;
    }
  }
}

export function price(
  rule: PricingRule,
  params: Params,
  inputs: InputMediaFacts,
  markup = 0,
): { credits: number; breakdown: Breakdown } {
  const base = round4(rule.rate * unitCount(rule, params, inputs));
  let multiplier = 1;
  for (const [id, table] of Object.entries(rule.multipliers ?? {})) {
    const v = params[id];
    if (v !== undefined) multiplier *= ownEntry(table, String(v)) ?? 1;
  }
  let surcharges = markup;
  for (const [id, table] of Object.entries(rule.surcharges ?? {})) {
    const v = params[id];
    if (v !== undefined) surcharges += ownEntry(table, String(v)) ?? 0;
  }
  const basePrice = rule.basePrice ?? 0;
  const minPrice = rule.minPrice ?? 0;
  // round4 first so float noise (2.0000000001) never costs an extra credit.
  const computed = Math.ceil(round4(base * multiplier + surcharges + basePrice));
  const credits = Math.max(minPrice, computed);
  return {
    credits,
    breakdown: {
      pricingKey: rule.pricingKey,
      base,
      multiplier: round4(multiplier),
      surcharges,
      basePrice,
      minPriceApplied: minPrice > computed,
    },
  };
}
