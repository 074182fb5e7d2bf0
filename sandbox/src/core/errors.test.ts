import { describe, expect, it } from 'vitest';
import { SandboxError } from './errors';

// A SandboxError takes only a code of the contract's table (contract/error.ts), with one of the statuses
// listed for it: the type checker refuses anything else, so the studio's message table, typed by the same
// table, has an entry for every code the sandbox can send. Each @ts-expect-error below fails the type
// check (npm run typecheck) if the constructor starts accepting that line.

describe('SandboxError against the contract’s error codes', () => {
  it('renders a contract code with a status the contract lists for it', () => {
    const error = new SandboxError(404, 'unknown_model', 'No such model.');
    expect(error.toBody()).toEqual({
      error: { message: 'No such model.', type: 'invalid_request_error', code: 'unknown_model' },
    });
    expect(new SandboxError(400, 'unknown_model', 'No such model.').type).toBe('invalid_request_error');
  });

  it('refuses, at type-check time, a code not in the contract or a status not listed for its code', () => {
    // @ts-expect-error a code the contract does not list
    const madeUp = new SandboxError(400, 'made_up_code', 'x');
    // @ts-expect-error rate_limited is a 429 in the contract, never a 400
    const wrongStatus = new SandboxError(400, 'rate_limited', 'x');
    // A fault injected for testing may carry any status.
    const fault = new SandboxError(418, 'injected_fault', 'x');
    expect([madeUp.code, wrongStatus.status, fault.status]).toEqual(['made_up_code', 400, 418]);
  });
});
