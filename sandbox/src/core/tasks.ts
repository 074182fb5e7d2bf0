import type { TaskStatus } from '../../../contract/task';
import { IDEMPOTENCY_KEY_LENGTH } from '../../../contract/request-limits';
import { capReached, requireProject, type Accounts, type Charge } from './accounts';
import type { CatalogViews } from './catalog-views';
import type { FixtureModel, FixtureVersion } from './catalog/types';
import { iso, type Clock } from './clock';
import { absoluteUrl, newId, type SandboxConfig } from './config';
import { SandboxError } from './errors';
import { hostedPath } from './hosted-path';
import type { KeyRecord } from './keys';
import type { MediaStore } from './media-store';
import type { MediaProbe } from './media-types';
import { fitToSource, planOutput } from './outputs';
import { resolveParams, type MediaRef, type Params } from './params';
import { price } from './pricing';
import { resolveSelector } from './task-selector';
import type { Uploads } from './uploads';

// Tasks: POST /quote, POST /tasks, GET /tasks/{id}. A task is scheduled on its account's pool of slots
// (api-notes §8), charged when submitted and refunded if it fails or is cancelled (settle), and its output is
// made through the media port while it runs, so a success never hands out a dead URL.

export interface TaskRecord {
  id: string;
  keyId: string;
  poolId: string;
  model: FixtureModel;
  versionId: string;
  params: Params;
  credits: number;
  charge: Charge;
  createdAt: number;
  startAt: number;
  endAt: number;
  outcome: 'succeeded' | 'failed' | 'cancelled';
  settled: boolean;
  outputPath?: string;
  thumbnailPath?: string;
  /** Set when the output could not be made: the task failed (and was refunded) instead of succeeding. */
  outputError?: string;
}

/** A task as saved: its model by id, its charge by its index in the accounts' charges. */
type SavedTask = Omit<TaskRecord, 'model' | 'charge'> & { modelId: string; chargeIndex: number };

export interface TasksSnapshot {
  tasks: SavedTask[];
  idempotency: Array<[string, { taskId: string; at: number }]>;
  runs: Array<[string, number[]]>;
  pools: Array<[string, number[]]>;
}

interface RunningPool {
  /** When each of the pool's slots is next free (api-notes §8: FIFO within a fixed number of slots). */
  slotFreeAt: number[];
}

interface TasksDeps {
  clock: Clock;
  config: SandboxConfig;
  media: MediaStore;
  views: CatalogViews;
  accounts: Accounts;
  uploads: Uploads;
}

const IDEMPOTENCY_MS = 24 * 60 * 60 * 1000;
/** How long GET /tasks/{id} waits for an output still being made before answering `running`. */
const RENDER_WAIT_MS = 30_000;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export class Tasks {
  private readonly clock: Clock;
  private readonly config: SandboxConfig;
  private readonly media: MediaStore;
  private readonly views: CatalogViews;
  private readonly accounts: Accounts;
  private readonly uploads: Uploads;
  private byId = new Map<string, TaskRecord>();
  private unsettled: TaskRecord[] = [];
  private idempotency = new Map<string, { taskId: string; at: number }>();
  /** The last run times of each model, for estimatedSeconds. */
  private runs = new Map<string, number[]>();
  private pools = new Map<string, RunningPool>();
  /** Outputs being made, by task id: a task is not reported succeeded before its output exists. */
  private renders = new Map<string, Promise<void>>();

  constructor(deps: TasksDeps) {
    this.clock = deps.clock;
    this.config = deps.config;
    this.media = deps.media;
    this.views = deps.views;
    this.accounts = deps.accounts;
    this.uploads = deps.uploads;
  }

  reset(): void {
    this.byId.clear();
    this.unsettled = [];
    this.idempotency.clear();
    this.runs.clear();
    this.pools.clear();
    this.renders.clear();
  }

  snapshot(charges: Charge[]): TasksSnapshot {
    return {
      tasks: [...this.byId.values()].map(({ model, charge, ...t }) => ({
        ...t,
        modelId: model.id,
        chargeIndex: charges.indexOf(charge),
      })),
      idempotency: [...this.idempotency],
      runs: [...this.runs],
      pools: [...this.pools].map(([id, p]) => [id, p.slotFreeAt]),
    };
  }

  /** Loads saved tasks (after the accounts, whose charges they point into). */
  restore(snap: TasksSnapshot, charges: Charge[]): void {
    for (const { modelId, chargeIndex, ...t } of snap.tasks) {
      const model = this.views.modelById(modelId);
      if (!model) continue;
      const task: TaskRecord = {
        ...t,
        model,
        charge: charges[chargeIndex] ?? { keyId: t.keyId, day: 0, credits: 0 },
      };
      this.byId.set(task.id, task);
      if (!task.settled) this.unsettled.push(task);
      if (task.outcome === 'succeeded') this.prepareOutput(task, false);
    }
    // Oldest first, as expireIdempotency expects.
    this.idempotency = new Map([...snap.idempotency].sort(([, a], [, b]) => a.at - b.at));
    this.runs = new Map(snap.runs);
    this.pools = new Map(snap.pools.map(([id, slotFreeAt]) => [id, { slotFreeAt }]));
  }

  private url(path: string): string {
    return absoluteUrl(this.config, path);
  }

  private hostedPath(url: string): string | null {
    return hostedPath(this.config, this.media, url);
  }

  /** What a media URL sent as a param is: an upload or an output of this sandbox, and whether it can be used. */
  mediaRef = (url: string): MediaRef | null => {
    const path = this.hostedPath(url);
    if (!path) return null;
    const upload = this.uploads.atPath(path);
    if (upload) return { kind: upload.kind, usable: this.uploads.statusOf(upload).status === 'ready' };
    const task = [...this.byId.values()].find((t) => t.outputPath === path);
    if (task)
      return {
        kind: task.model.output.kind === 'svg' ? 'image' : task.model.output.kind,
        usable: this.statusOf(task, this.clock.now()) === 'succeeded',
      };
    return null;
  };

  private probeOf(url: unknown): MediaProbe | undefined {
    if (typeof url !== 'string') return undefined;
    const path = this.hostedPath(url);
    return path ? this.uploads.atPath(path)?.probe : undefined;
  }

  private priced(body: unknown) {
    const { model, version, params: merged, defs, markup } = resolveSelector(this.views, body);
    const params = resolveParams(defs, merged, model, this.mediaRef);
    const quote = this.priceOf(version, params, markup);
    return { model, version, params, ...quote };
  }

  private priceOf(version: FixtureVersion, params: Params, markup: number) {
    const firstUrl = (id: string) => {
      const v = params[id];
      return Array.isArray(v) ? v[0] : v;
    };
    return price(
      version.pricing,
      params,
      {
        durationSec: (id) => this.probeOf(firstUrl(id))?.durationSec ?? this.outputSeconds(firstUrl(id)),
        frames: (id) => this.probeOf(firstUrl(id))?.frames,
      },
      markup,
    );
  }

  /** Outputs used as inputs: the sandbox knows their length from the plan that made them. */
  private outputSeconds(url: unknown): number | undefined {
    if (typeof url !== 'string') return undefined;
    const path = this.hostedPath(url);
    const task = path ? [...this.byId.values()].find((t) => t.outputPath === path) : undefined;
    if (!task) return undefined;
    const spec = planOutput(task.model, task.versionId, task.params, task.id).spec;
    return spec.kind === 'video' || spec.kind === 'audio' ? spec.seconds : undefined;
  }

  private estimatedSeconds(modelId: string): number | null {
    const runs = this.runs.get(modelId);
    return runs?.length ? Math.round(median(runs) * 10) / 10 : null;
  }

  quote(_key: KeyRecord, body: unknown) {
    this.settle();
    const { model, version, credits, breakdown } = this.priced(body);
    return {
      credits,
      estimatedSeconds: this.estimatedSeconds(model.id),
      modelId: model.id,
      versionId: version.id,
      modelName: model.name,
      breakdown,
    };
  }

  /** api-notes §4 POST /tasks rules 1-8, in order: replay, selectors, funds gates, params, price, moderation, cap, charge. */
  /** Whether a POST /tasks with this key and Idempotency-Key repeats one that made a task (rule 7). */
  isRepeat(key: KeyRecord, idempotencyKey: string): boolean {
    this.expireIdempotency(this.clock.now());
    return this.idempotency.has(`${key.id}:${idempotencyKey}`);
  }

  submitTask(key: KeyRecord, body: unknown, idempotencyKey: string | undefined) {
    this.settle();
    const now = this.clock.now();
    const { min, max } = IDEMPOTENCY_KEY_LENGTH;
    if (idempotencyKey !== undefined && (idempotencyKey.length < min || idempotencyKey.length > max)) {
      throw new SandboxError(
        400,
        'invalid_idempotency_key',
        `Idempotency-Key must be ${min} to ${max} characters.`,
        {
          param: 'Idempotency-Key',
        },
      );
    }
    this.expireIdempotency(now);
    const idemId = idempotencyKey === undefined ? undefined : `${key.id}:${idempotencyKey}`;
    const previous = idemId ? this.idempotency.get(idemId) : undefined;
    if (previous) {
      const task = this.byId.get(previous.taskId)!;
      return {
        taskId: task.id,
        status: this.statusOf(task, now),
        modelId: task.model.id,
        versionId: task.versionId,
        idempotent: true,
      };
    }

    requireProject(key);
    this.accounts.requireNotInArrears(key);
    const cap = key.dailyCreditCap;
    const spent = this.accounts.spentToday(key);
    if (cap !== null && spent >= cap) throw capReached(cap, spent, now);
    const { model, version, params, credits } = this.priced(body);
    const prompt = typeof params.prompt === 'string' ? params.prompt : '';
    if (prompt.includes('[blocked]')) {
      throw new SandboxError(422, 'moderation_blocked', 'The prompt was blocked by the content policy.', {
        param: 'prompt',
        extra: { labels: 'policy:sandbox-blocked' },
      });
    }
    if (cap !== null && spent + credits > cap) {
      throw new SandboxError(
        402,
        'token_daily_cap_exceeded',
        `This task costs ${credits} credits; with ${spent} of ${cap} spent today it would pass the key's daily cap.`,
        { extra: { spent, cap, credits } },
      );
    }
    const account = this.accounts.account(key);
    if (account.balance < credits) {
      throw new SandboxError(
        402,
        'insufficient_credits',
        `This task costs ${credits} credits; the balance is ${account.balance}.`,
        {
          extra: { balance: account.balance, credits },
        },
      );
    }

    const task = this.schedule(key, model, version.id, params, this.accounts.charge(key, credits), now);
    if (idemId) this.idempotency.set(idemId, { taskId: task.id, at: now });
    return { taskId: task.id, status: 'queued' as const, modelId: model.id, versionId: version.id };
  }

  /**
   * Drops the idempotency records past their retention (api-notes §4 rule 7: 24 hours), so a sandbox that
   * runs for days holds a day's worth of them, not one for every task it ever made. The map is in the
   * order the records were made (a key is only recorded again once its record is gone), so the expired
   * ones are at its front.
   */
  private expireIdempotency(now: number): void {
    for (const [id, record] of this.idempotency) {
      if (now - record.at < IDEMPOTENCY_MS) return;
      this.idempotency.delete(id);
    }
  }

  private schedule(
    key: KeyRecord,
    model: FixtureModel,
    versionId: string,
    params: Params,
    charge: Charge,
    now: number,
  ) {
    const { taskMs } = this.config;
    const dispatchMs = Math.round(taskMs / 4);
    const prompt = typeof params.prompt === 'string' ? params.prompt : '';
    const outcome = prompt.includes('[cancel]')
      ? 'cancelled'
      : prompt.includes('[fail]')
        ? 'failed'
        : 'succeeded';
    const poolId = key.accountId;
    let startAt = now + dispatchMs;
    let endAt: number;
    if (outcome === 'cancelled') {
      endAt = startAt; // cancelled while queued: never takes a slot
    } else {
      const pool = this.pools.get(poolId) ?? {
        slotFreeAt: new Array<number>(this.accounts.account(key).concurrency).fill(0),
      };
      this.pools.set(poolId, pool);
      const slot = pool.slotFreeAt.indexOf(Math.min(...pool.slotFreeAt));
      startAt = Math.max(startAt, pool.slotFreeAt[slot]!);
      endAt = startAt + (outcome === 'failed' ? Math.round(taskMs / 2) : taskMs);
      pool.slotFreeAt[slot] = endAt;
    }
    const task: TaskRecord = {
      id: newId('task'),
      keyId: key.id,
      poolId,
      model,
      versionId,
      params,
      credits: charge.credits,
      charge,
      createdAt: now,
      startAt,
      endAt,
      outcome,
      settled: false,
    };
    this.byId.set(task.id, task);
    this.unsettled.push(task);
    if (outcome === 'succeeded') this.prepareOutput(task);
    return task;
  }

  private prepareOutput(task: TaskRecord, warm = true): void {
    const plan = planOutput(task.model, task.versionId, task.params, task.id);
    const { works } = this.config;
    const render = async () => {
      const source = plan.sourceParam ? await this.sourceBytes(task.params[plan.sourceParam]) : undefined;
      if (!source) return works.render(plan.spec);
      const fit = fitToSource(plan, await works.inspectSource(source, { opacity: !!plan.autoFormat }));
      return works.render(fit.kind === 'image' || fit.kind === 'video' ? { ...fit, source } : fit);
    };
    const outputPath = `/cdn/outputs/${task.id}.${plan.ext}`;
    const thumbnailPath = plan.hasThumbnail ? `/cdn/outputs/${task.id}-poster.jpg` : undefined;
    task.outputPath = outputPath;
    task.thumbnailPath = thumbnailPath;
    if (thumbnailPath) this.media.putLazyPair(outputPath, thumbnailPath, render);
    else this.media.putLazy(outputPath, render);
    if (!warm) return;
    // Make it now, while the task is "running", so the first download is instant. An output that
    // cannot be made fails its task (refunded). One made from an input file (which can turn out
    // unusable) holds its task at `running` until it exists, so no success ever has a dead URL; one made
    // from the params alone does not depend on anything a user sent and keeps the task's timing (a
    // download that comes before it is made waits for it).
    const made = this.media.get(outputPath).then(
      () => undefined,
      (err: unknown) => {
        if (this.byId.get(task.id) !== task) return;
        console.warn(
          `[sandbox] output of ${task.id} could not be made:`,
          err instanceof Error ? err.message : err,
        );
        this.failOutput(task);
      },
    );
    if (!plan.sourceParam) return;
    this.renders.set(task.id, made);
    void made.finally(() => {
      if (this.renders.get(task.id) === made) this.renders.delete(task.id);
    });
  }

  private failOutput(task: TaskRecord): void {
    if (task.outcome !== 'succeeded') return;
    task.outcome = 'failed';
    task.outputError = 'The output could not be made from these inputs. The credits were refunded.';
    if (task.outputPath) this.media.delete(task.outputPath);
    if (task.thumbnailPath) this.media.delete(task.thumbnailPath);
    task.outputPath = undefined;
    task.thumbnailPath = undefined;
    // Settled already (its time is up): refund now; otherwise settle() refunds it as a failed task.
    if (task.settled) this.accounts.refund(this.accounts.keyById(task.keyId), task.charge);
  }

  private async sourceBytes(value: unknown): Promise<Buffer | undefined> {
    const url = Array.isArray(value) ? value[0] : value;
    if (typeof url !== 'string') return undefined;
    const path = this.hostedPath(url);
    const file = path ? await this.media.get(path) : null;
    return file?.bytes;
  }

  private statusOf(task: TaskRecord, now: number): TaskStatus {
    // Its time is up but its output is still being made: running a little longer.
    if (now >= task.endAt)
      return task.outcome === 'succeeded' && this.renders.has(task.id) ? 'running' : task.outcome;
    return now >= task.startAt ? 'running' : 'queued';
  }

  /** Brings billing and run statistics up to the clock: refunds for failed/cancelled, durations for estimates. */
  settle(now = this.clock.now()): void {
    const due = this.unsettled.filter((t) => t.endAt <= now).sort((a, b) => a.endAt - b.endAt);
    if (!due.length) return;
    this.unsettled = this.unsettled.filter((t) => t.endAt > now);
    for (const task of due) {
      task.settled = true;
      if (task.outcome === 'succeeded') {
        const runs = this.runs.get(task.model.id) ?? [];
        runs.push((task.endAt - task.createdAt) / 1000);
        this.runs.set(task.model.id, runs.slice(-10));
      } else {
        this.accounts.refund(this.accounts.keyById(task.keyId), task.charge);
      }
    }
  }

  async getTask(key: KeyRecord, id: string) {
    const task = this.byId.get(id);
    if (!task || task.keyId !== key.id) {
      throw new SandboxError(404, 'unknown_task', `No task "${id}" for this key.`);
    }
    // A task whose time is up answers once its output is made (or has failed to be), within a bound.
    const rendering = this.renders.get(task.id);
    if (rendering && this.clock.now() >= task.endAt) {
      await Promise.race([rendering, new Promise((r) => setTimeout(r, RENDER_WAIT_MS))]);
    }
    // One reading of the clock for both: read twice, a task could end between them and be answered
    // failed with its charge not yet refunded.
    const now = this.clock.now();
    this.settle(now);
    const status = this.statusOf(task, now);
    const terminal = status === 'succeeded' || status === 'failed' || status === 'cancelled';
    return {
      taskId: task.id,
      status,
      outputs:
        status === 'succeeded' && task.outputPath
          ? [
              {
                url: this.url(task.outputPath),
                ...(task.thumbnailPath ? { thumbnailUrl: this.url(task.thumbnailPath) } : {}),
              },
            ]
          : [],
      error:
        status === 'failed'
          ? {
              code: 'generation_failed',
              message:
                task.outputError ?? 'The model could not generate this output (sandbox [fail] trigger).',
            }
          : null,
      creditsCharged: task.charge.credits,
      createdAt: iso(task.createdAt),
      completedAt: terminal ? iso(task.endAt) : null,
    };
  }

  /** Output paths are only served once their task has succeeded. */
  isServable(path: string): boolean {
    if (!path.startsWith('/cdn/outputs/')) return true;
    const id = path.slice('/cdn/outputs/'.length).replace(/(-poster)?\.[a-z0-9]+$/, '');
    const task = this.byId.get(id);
    return !!task && this.statusOf(task, this.clock.now()) === 'succeeded';
  }
}
