import { DESCRIBE_LANGUAGES, type DescribeLanguage } from '../../../../contract/describe';
import type { ApiErrorCode, StatusOf } from '../../../../contract/error';
import { capReached, requireProject, type Accounts } from '../accounts';
import type { Clock } from '../clock';
import type { SandboxConfig } from '../config';
import { SandboxError, invalidPayload } from '../errors';
import { hostedPath } from '../hosted-path';
import type { KeyRecord } from '../keys';
import type { MediaStore } from '../media-store';
import type { MediaRef } from '../params';
import { describeImage } from './describe';

// POST /describe-image: checks the request, charges its credit (refunded when the "vision model"
// fails: the README's SANDBOX-* triggers), and describes the image with ./describe.ts.

export interface DescriberDeps {
  clock: Clock;
  config: SandboxConfig;
  media: MediaStore;
  accounts: Accounts;
  /** What a hosted URL is (an upload or an output) and whether it is usable: Tasks.mediaRef. */
  mediaRef: (url: string) => MediaRef | null;
}

export class Describer {
  constructor(private readonly deps: DescriberDeps) {}

  async describe(key: KeyRecord, body: unknown) {
    const { accounts, media } = this.deps;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw invalidPayload('The request body must be a JSON object.');
    }
    const { imageUrl, language = 'en' } = body as Record<string, unknown>;
    if (typeof imageUrl !== 'string' || !imageUrl) throw invalidPayload('imageUrl is required.', 'imageUrl');
    if (typeof language !== 'string' || !(DESCRIBE_LANGUAGES as readonly string[]).includes(language)) {
      throw invalidPayload(`language must be one of ${DESCRIBE_LANGUAGES.join(', ')}.`, 'language', {
        allowed: DESCRIBE_LANGUAGES,
      });
    }
    const ref = this.deps.mediaRef(imageUrl);
    if (!ref || ref.kind !== 'image') {
      throw invalidPayload(
        'imageUrl must be an image hosted by the service (upload it with POST /uploads first); external URLs are rejected.',
        'imageUrl',
      );
    }
    requireProject(key);
    accounts.requireNotInArrears(key);
    // The key's daily cap holds here too (api-notes §8): coarse when already met, precise for this credit.
    const cap = key.dailyCreditCap;
    if (cap !== null) {
      const spent = accounts.spentToday(key);
      if (spent >= cap) throw capReached(cap, spent, this.deps.clock.now());
      if (spent + 1 > cap) {
        throw new SandboxError(
          402,
          'token_daily_cap_exceeded',
          `Describing an image costs 1 credit; with ${spent} of ${cap} spent today it would pass the key's daily cap.`,
          { extra: { spent, cap, credits: 1 } },
        );
      }
    }
    const account = accounts.account(key);
    if (account.balance < 1) {
      throw new SandboxError(
        402,
        'insufficient_credits',
        'Describing an image costs 1 credit; the balance is below that.',
        {
          extra: { balance: account.balance, credits: 1 },
        },
      );
    }
    const charge = accounts.charge(key, 1);
    const refunded = <C extends ApiErrorCode>(status: StatusOf<C>, code: C, message: string) => {
      accounts.refund(key, charge);
      return new SandboxError(status, code, `${message} The credit was refunded.`);
    };
    const file = await media.get(hostedPath(this.deps.config, media, imageUrl) ?? '');
    if (!file) throw refunded(503, 'vision_unavailable', 'The image could not be read.');
    const bytes = file.bytes;
    if (bytes.includes('SANDBOX-REFUSE'))
      throw refunded(422, 'policy_violation', 'The vision model refused this image.');
    if (bytes.includes('SANDBOX-UPSTREAM'))
      throw refunded(429, 'upstream_rate_limited', 'The vision service is busy.');
    if (bytes.includes('SANDBOX-VISION-DOWN'))
      throw refunded(503, 'vision_unavailable', 'The vision service is unavailable.');
    try {
      return {
        credits: 1,
        ...(await describeImage(bytes, language as DescribeLanguage, this.deps.config.works.sampleImage)),
      };
    } catch {
      throw refunded(503, 'vision_unavailable', 'The image could not be read.');
    }
  }
}
