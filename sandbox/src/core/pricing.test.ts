import { describe, expect, it } from 'vitest';
import { fixture } from './catalog/fixture';
import { planOutput } from './outputs';
import { price } from './pricing';

// Values a request chooses are looked up as own entries only ("__proto__" and the like are not prices).

const PROTO = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];
const none = { durationSec: () => undefined, frames: () => undefined };

describe('own-property look-ups in pricing and output plans', () => {
  it('a value named like an Object.prototype member is no entry of a multiplier or surcharge table', () => {
    const rule = {
      pricingKey: 't',
      rate: 4,
      units: { kind: 'flat' as const },
      multipliers: { quality: { hd: 2 } },
      surcharges: { enhance: { on: 2 } },
    };
    for (const v of PROTO) {
      const { credits, breakdown } = price(rule, { quality: v, enhance: v }, none);
      expect(credits, v).toBe(4);
      expect(breakdown.multiplier).toBe(1);
      expect(breakdown.surcharges).toBe(0);
    }
    expect(price(rule, { quality: 'hd', enhance: 'on' }, none).credits).toBe(10);
  });

  it('a resolution named like an Object.prototype member gives a real size', () => {
    for (const model of fixture.models.filter(
      (m) => m.output.kind === 'image' || m.output.kind === 'video',
    )) {
      const res = model.params.find((p) => p.type === 'resolution');
      if (!res) continue;
      for (const v of PROTO) {
        const plan = planOutput(model, model.versions[0]!.id, { prompt: 'x', [res.id]: v }, 'task_x');
        const spec = plan.spec as { width: number; height: number };
        expect(Number.isFinite(spec.width) && spec.width > 0, `${model.id} ${v}`).toBe(true);
        expect(Number.isFinite(spec.height) && spec.height > 0, `${model.id} ${v}`).toBe(true);
      }
    }
  });
});
