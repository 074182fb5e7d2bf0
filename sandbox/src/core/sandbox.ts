import { randomBytes } from 'node:crypto';
import { CATEGORIES, isCategory } from '../../../contract/category';
import { DESCRIBE_LANGUAGES, type DescribeLanguage } from '../../../contract/describe';
import type { ParamDef } from '../../../contract/param';
import type { TaskStatus } from '../../../contract/task';
import { UPLOAD_CONTENT_TYPES, UPLOAD_MAX_BYTES } from '../../../contract/upload';
import { renderLogo } from '../media/asset';
import { renderMedia } from '../media/render';
import type { MediaProbe } from '../media/types';
import { verifyUpload } from '../media/verify';
import { catalogAssets } from './catalog/assets';
import {
  fixture as defaultFixture,
  isModelListed,
  isTemplateListed,
  isToolListed,
  toPublicAiTool,
  toPublicModel,
  toPublicTemplate,
  validateFixture,
} from './catalog/fixture';
import type {
  CatalogFixture,
  FixtureAiTool,
  FixtureModel,
  FixtureTemplate,
  FixtureVersion,
} from './catalog/types';
import { Clock, isValidOffset, iso, msToUtcMidnight, utcDay } from './clock';
import { describeImage } from './describe';
import { SandboxError, invalidPayload } from './errors';
import {
  authenticate,
  createAccounts,
  createKeys,
  projectUnbound,
  type Account,
  type KeyRecord,
} from './keys';
import { MEDIA_DEFAULTS, MediaStore, type MediaFile } from './media-store';
import { fitToSource, planOutput } from './outputs';
import { checkParamsShape, resolveParams, type MediaKind, type MediaRef, type Params } from './params';
import { price } from './pricing';
import { RateLimiter, type RateGroup } from './rate-limit';

// The sandbox's state and rules, with no HTTP: the routes in ../http call these methods and render
// what they return or throw. Time always comes from `clock`, so everything moves when tests move it.

export interface SandboxConfig {
  /** Origin written into media URLs, e.g. http://127.0.0.1:4010 */
  publicUrl: string;
  taskMs: number;
  moderationMs: number;
  /** false only for benchmarks that measure raw throughput (SANDBOX_RATE_LIMITS=off). */
  rateLimits?: boolean;
  fixture?: CatalogFixture;
  /** Folder for media bytes (uploads, renders): the data folder, or a temporary one (README: Storage). */
  mediaDir: string;
  /** Bytes of media kept in memory (default 64 MiB). */
  mediaMemoryBytes?: number;
  /** Bytes of media kept on disk (default 2 GiB); past it the oldest files go. */
  mediaDiskBytes?: number;
}

interface Charge {
  keyId: string;
  day: number;
  credits: number;
}

interface TaskRecord {
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

type UploadOutcome =
  { status: 'ready' } | { status: 'blocked'; labels: string } | { status: 'errored'; reason: string };

export interface UploadRecord {
  id: string;
  keyId: string;
  kind: MediaKind;
  contentType: string;
  size: number;
  path: string;
  createdAt: number;
  /** Videos: when asynchronous moderation ends. */
  decidedAt: number;
  outcome: UploadOutcome;
  probe: MediaProbe;
}

interface RunningPool {
  /** When each of the pool's slots is next free (spec 8: FIFO within a fixed number of slots). */
  slotFreeAt: number[];
}

/** Everything that survives a restart when the sandbox has a data folder (media bytes are stored beside it). */
export interface SandboxSnapshot {
  version: 1;
  clockOffsetMs: number;
  startedAt: number;
  accounts: Account[];
  charges: Charge[];
  tasks: Array<Omit<TaskRecord, 'model' | 'charge'> & { modelId: string; chargeIndex: number }>;
  uploads: UploadRecord[];
  idempotency: Array<[string, { taskId: string; at: number }]>;
  runs: Array<[string, number[]]>;
  pools: Array<[string, number[]]>;
}

const IDEMPOTENCY_MS = 24 * 60 * 60 * 1000;
/** How long GET /tasks/{id} waits for an output still being made before answering `running`. */
const RENDER_WAIT_MS = 30_000;
const BLOCK_MARK = Buffer.from('SANDBOX-BLOCK');
const ERROR_MARK = Buffer.from('SANDBOX-ERROR');
const MODERATION_LABELS = 'explicit_nudity,graphic_violence';
const EXT_OF: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/ogg': 'ogg',
  'audio/webm': 'weba',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/quicktime': 'mov',
};

const newId = (prefix: string) => `${prefix}_${randomBytes(9).toString('base64url')}`;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

export class Sandbox {
  readonly clock = new Clock();
  readonly rate = new RateLimiter();
  readonly media: MediaStore;
  readonly catalog: CatalogFixture;
  private startedAt = this.clock.now();
  private accounts = new Map<string, Account>();
  private keysByValue = new Map<string, KeyRecord>();
  private keyList: KeyRecord[] = [];
  private tasks = new Map<string, TaskRecord>();
  private unsettled: TaskRecord[] = [];
  private uploads = new Map<string, UploadRecord>();
  private uploadsByPath = new Map<string, UploadRecord>();
  private idempotency = new Map<string, { taskId: string; at: number }>();
  private charges: Charge[] = [];
  private runs = new Map<string, number[]>();
  private pools = new Map<string, RunningPool>();
  /** Outputs being made, by task id: a task is not reported succeeded before its output exists. */
  private renders = new Map<string, Promise<void>>();

  constructor(readonly config: SandboxConfig) {
    this.media = new MediaStore({
      dir: config.mediaDir,
      memoryBytes: config.mediaMemoryBytes ?? MEDIA_DEFAULTS.memoryBytes,
      diskBytes: config.mediaDiskBytes ?? MEDIA_DEFAULTS.diskBytes,
      onEvictUpload: (path) => {
        const upload = this.uploadsByPath.get(path);
        this.uploadsByPath.delete(path);
        if (upload) this.uploads.delete(upload.id);
      },
    });
    this.catalog = config.fixture ?? defaultFixture;
    validateFixture(this.catalog);
    this.resetState();
  }

  /** Back to the initial state, media files deleted (POST /__sandbox/reset). */
  reset(): void {
    this.media.clear();
    this.resetState();
  }

  private resetState(): void {
    this.clock.reset();
    this.rate.reset();
    this.startedAt = this.clock.now();
    this.accounts = createAccounts();
    this.keyList = createKeys(this.startedAt);
    this.keysByValue = new Map(this.keyList.map((k) => [k.key, k]));
    this.tasks.clear();
    this.unsettled = [];
    this.uploads.clear();
    this.uploadsByPath.clear();
    this.idempotency.clear();
    this.charges = [];
    this.runs.clear();
    this.pools.clear();
    this.renders.clear();
    this.registerCatalogAssets();
  }

  snapshot(): SandboxSnapshot {
    return {
      version: 1,
      clockOffsetMs: this.clock.offset,
      startedAt: this.startedAt,
      accounts: [...this.accounts.values()],
      charges: this.charges,
      tasks: [...this.tasks.values()].map(({ model, charge, ...t }) => ({
        ...t,
        modelId: model.id,
        chargeIndex: this.charges.indexOf(charge),
      })),
      uploads: [...this.uploads.values()],
      idempotency: [...this.idempotency],
      runs: [...this.runs],
      pools: [...this.pools].map(([id, p]) => [id, p.slotFreeAt]),
    };
  }

  /** Loads a snapshot taken by snapshot(); each upload's bytes must already be in the media folder. */
  restore(snap: SandboxSnapshot): void {
    this.resetState();
    // A state saved before the clock had bounds may hold an offset no Date can show: start it afresh.
    this.clock.offset = isValidOffset(snap.clockOffsetMs) ? snap.clockOffsetMs : 0;
    this.startedAt = snap.startedAt;
    this.keyList = createKeys(this.startedAt);
    this.keysByValue = new Map(this.keyList.map((k) => [k.key, k]));
    this.accounts = new Map(snap.accounts.map((a) => [a.id, a]));
    this.charges = snap.charges;
    for (const { modelId, chargeIndex, ...t } of snap.tasks) {
      const model = this.catalog.models.find((m) => m.id === modelId);
      if (!model) continue;
      const task: TaskRecord = {
        ...t,
        model,
        charge: this.charges[chargeIndex] ?? { keyId: t.keyId, day: 0, credits: 0 },
      };
      this.tasks.set(task.id, task);
      if (!task.settled) this.unsettled.push(task);
      if (task.outcome === 'succeeded') this.prepareOutput(task, false);
    }
    for (const u of snap.uploads) {
      if (!this.media.adoptUpload(u.path, u.contentType)) continue;
      this.uploads.set(u.id, u);
      this.uploadsByPath.set(u.path, u);
    }

    this.idempotency = new Map(snap.idempotency);
    this.runs = new Map(snap.runs);
    this.pools = new Map(snap.pools.map(([id, slotFreeAt]) => [id, { slotFreeAt }]));
  }

  /** Deletes upload files that no upload record names (left by a crash between a write and a save). */
  removeOrphanUploads(): void {
    for (const id of this.media.uploadFileIds()) if (!this.uploads.has(id)) this.media.removeUploadFile(id);
  }

  // ---- keys and accounts -------------------------------------------------------------------

  demoKeys() {
    return this.keyList.map((k) => ({
      name: k.name,
      key: k.key,
      label: k.label,
      kind: this.account(k).kind === 'team' ? 'team' : 'personal',
      description: k.description,
    }));
  }

  keyNameOf(authorization: string | undefined): string | undefined {
    const value = authorization?.replace(/^Bearer\s+/i, '').trim();
    return value ? this.keysByValue.get(value)?.name : undefined;
  }

  authenticate(authorization: string | undefined): KeyRecord {
    return authenticate(authorization, this.keysByValue, this.accounts, this.clock.now());
  }

  limit(key: KeyRecord, group: RateGroup): void {
    if (this.config.rateLimits === false) return;
    this.rate.hit(key.id, group, this.clock.now());
  }

  private account(key: KeyRecord): Account {
    return this.accounts.get(key.accountId)!;
  }

  private spentToday(key: KeyRecord): number {
    const today = utcDay(this.clock.now());
    return this.charges
      .filter((c) => c.keyId === key.id && c.day === today)
      .reduce((n, c) => n + c.credits, 0);
  }

  private requireProject(key: KeyRecord): void {
    if (!key.project) throw projectUnbound();
  }

  private requireNotInArrears(key: KeyRecord): void {
    if (this.account(key).arrears) {
      throw new SandboxError(
        402,
        'arrears',
        'The account is in arrears. Settle the outstanding balance to continue.',
      );
    }
  }

  private charge(key: KeyRecord, credits: number): Charge {
    const charge = { keyId: key.id, day: utcDay(this.clock.now()), credits };
    this.charges.push(charge);
    this.account(key).balance -= credits;
    return charge;
  }

  private refund(key: KeyRecord | undefined, charge: Charge): void {
    if (key) this.account(key).balance += charge.credits;
    charge.credits = 0;
  }

  me(key: KeyRecord) {
    this.settle();
    const account = this.account(key);
    const spent = this.spentToday(key);
    const cap = key.dailyCreditCap;
    return {
      key: {
        id: key.id,
        prefix: key.prefix,
        label: key.label,
        createdAt: iso(key.createdAt),
        expiresAt: key.expiresAt === null ? null : iso(key.expiresAt),
        dailyCreditCap: cap,
        creditsSpentToday: spent,
        creditsRemainingToday: cap === null ? null : Math.max(0, cap - spent),
      },
      project: key.project
        ? { id: key.project.id, name: key.project.name }
        : { id: null, name: null, bound: false },
      ...(account.kind === 'team'
        ? { team: { id: account.id, creditBalance: account.balance } }
        : { user: { creditBalance: account.balance } }),
      limits: { tasksPerMin: 60, uploadsPerMin: 30, uploadPollPerMin: 120 },
    };
  }

  // ---- catalog -------------------------------------------------------------------------------

  private url(path: string): string {
    return path.startsWith('/') ? `${this.config.publicUrl}${path}` : path;
  }

  private registerCatalogAssets(): void {
    for (const [path, asset] of Object.entries(catalogAssets)) {
      this.media.putLazy(path, () =>
        asset.kind === 'logo' ? renderLogo(asset.seed, asset.text) : renderMedia(asset.spec),
      );
    }
  }

  private publicParams(defs: ParamDef[]): ParamDef[] {
    return defs.map((d) => ({
      ...d,
      ...(d.options
        ? {
            options: d.options.map((o) =>
              typeof o === 'object' && o.previewUrl ? { ...o, previewUrl: this.url(o.previewUrl) } : o,
            ),
          }
        : {}),
    }));
  }

  /** The fixture's public view (an allowlist of spec fields) with asset paths made absolute. */
  private publicModel(m: FixtureModel) {
    const model = toPublicModel(m);
    return {
      ...model,
      brand: { ...model.brand, ...(model.brand.logo ? { logo: this.url(model.brand.logo) } : {}) },
      params: this.publicParams(model.params),
    };
  }

  private modelOf = (id: string) => this.catalog.models.find((m) => m.id === id);

  listModels(type: string | undefined, subType: string | undefined) {
    if (!type || !subType || !isCategory(type, subType)) {
      throw new SandboxError(
        400,
        'invalid_payload',
        'Query parameters type and subtype must name one of the public categories.',
        { param: !type ? 'type' : 'subtype', extra: { validCategories: CATEGORIES } },
      );
    }
    return {
      models: this.catalog.models
        .filter((m) => m.type === type && m.subType === subType && isModelListed(m))
        .map((m) => this.publicModel(m)),
    };
  }

  private checkMediaTypeFilter(type: string | undefined): void {
    if (type !== undefined && type !== 'image' && type !== 'video') {
      throw new SandboxError(400, 'invalid_type', 'type must be image or video.', { param: 'type' });
    }
  }

  private toolListed = (t: FixtureAiTool) => isToolListed(t, this.modelOf(t.modelId));
  private templateListed = (t: FixtureTemplate) => isTemplateListed(t, this.modelOf(t.modelId));

  private publicPreset<T extends { coverUrl?: string; params: ParamDef[] }>(p: T): T {
    return {
      ...p,
      params: this.publicParams(p.params),
      ...(p.coverUrl ? { coverUrl: this.url(p.coverUrl) } : {}),
    };
  }

  private publicTool = (t: FixtureAiTool) => this.publicPreset(toPublicAiTool(t));
  private publicTemplate = (t: FixtureTemplate) => this.publicPreset(toPublicTemplate(t));

  listAiTools(type: string | undefined) {
    this.checkMediaTypeFilter(type);
    return {
      aiTools: this.catalog.aiTools
        .filter((t) => this.toolListed(t) && (!type || t.mediaType === type))
        .map((t) => this.publicTool(t)),
    };
  }

  private findTool(slug: string) {
    const tool = this.catalog.aiTools.find((t) => t.slug === slug);
    if (!tool || !this.toolListed(tool)) {
      throw new SandboxError(404, 'unknown_ai_tool', `No AI tool "${slug}".`, { param: 'aiTool' });
    }
    return tool;
  }

  getAiTool(slug: string) {
    return this.publicTool(this.findTool(slug));
  }

  listTemplates(type: string | undefined) {
    this.checkMediaTypeFilter(type);
    return {
      templates: this.catalog.templates
        .filter((t) => this.templateListed(t) && (!type || t.mediaType === type))
        .map((t) => this.publicTemplate(t)),
    };
  }

  private findTemplate(slug: string) {
    const template = this.catalog.templates.find((t) => t.slug === slug);
    if (!template || !this.templateListed(template)) {
      throw new SandboxError(404, 'unknown_template', `No template "${slug}".`, { param: 'template' });
    }
    return template;
  }

  getTemplate(slug: string) {
    return this.publicTemplate(this.findTemplate(slug));
  }

  // ---- media lookups -------------------------------------------------------------------------

  /** The path of a service-hosted URL, or null for anything else (spec 2: media params take hosted URLs only). */
  private hostedPath(url: string): string | null {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    if (parsed.origin !== new URL(this.config.publicUrl).origin || !parsed.pathname.startsWith('/cdn/'))
      return null;
    return this.media.has(parsed.pathname) ? parsed.pathname : null;
  }

  private mediaRef = (url: string): MediaRef | null => {
    const path = this.hostedPath(url);
    if (!path) return null;
    const upload = this.uploadsByPath.get(path);
    if (upload) return { kind: upload.kind, usable: this.uploadStatus(upload).status === 'ready' };
    const task = [...this.tasks.values()].find((t) => t.outputPath === path);
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
    return path ? this.uploadsByPath.get(path)?.probe : undefined;
  }

  // ---- quote and submit ----------------------------------------------------------------------

  private resolveSelector(body: unknown) {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw invalidPayload('The request body must be a JSON object.');
    }
    const b = body as Record<string, unknown>;
    for (const field of ['interfaceId', 'versionId', 'aiTool', 'template'] as const) {
      if (b[field] !== undefined && (typeof b[field] !== 'string' || !b[field])) {
        throw invalidPayload(`${field} must be a non-empty string.`, field);
      }
    }
    const raw = b.interfaceId !== undefined || b.versionId !== undefined;
    const selectors = [raw, b.aiTool !== undefined, b.template !== undefined].filter(Boolean).length;
    if (selectors > 1) {
      throw invalidPayload('Send exactly one of interfaceId (+ versionId), aiTool or template.');
    }
    if (selectors === 0) throw invalidPayload('Send one of interfaceId + versionId, aiTool or template.');
    const supplied = checkParamsShape(b.params);

    if (raw) {
      if (b.interfaceId === undefined) throw invalidPayload('versionId needs interfaceId.', 'interfaceId');
      if (b.versionId === undefined) throw invalidPayload('interfaceId needs versionId.', 'versionId');
      const model = this.catalog.models.find((m) => m.id === b.interfaceId);
      if (!model || !model.enabled) {
        throw new SandboxError(404, 'unknown_model', `No model "${String(b.interfaceId)}".`, {
          param: 'interfaceId',
        });
      }
      if (!model.public) {
        throw new SandboxError(
          403,
          'model_not_public',
          `Model "${model.id}" is not available through the API.`,
          {
            param: 'interfaceId',
          },
        );
      }
      const version = model.versions.find((v) => v.id === b.versionId);
      if (!version) {
        throw new SandboxError(
          404,
          'unknown_model',
          `Model "${model.id}" has no version "${String(b.versionId)}".`,
          {
            param: 'versionId',
          },
        );
      }
      return { model, version, supplied, params: supplied, defs: model.params, markup: 0 };
    }

    const preset =
      b.aiTool !== undefined ? this.findTool(b.aiTool as string) : this.findTemplate(b.template as string);
    const kind = b.aiTool !== undefined ? 'AI tool' : 'template';
    // spec 4 rule 3 and GET /templates/{slug}: a preset takes exactly the inputs it lists; the ones it
    // fixes are refused as fixed, and the model's other params, hidden by the preset, as not its inputs.
    // Own-property checks only: a param id such as "constructor" or "__proto__" is just an unknown id.
    for (const id of Object.keys(supplied)) {
      if (Object.hasOwn(preset.fixedParams, id)) {
        throw invalidPayload(`${id} is fixed by this ${kind} and cannot be sent.`, id);
      }
      if (!preset.params.some((p) => p.id === id)) {
        const inputs = preset.params.map((p) => p.id);
        throw invalidPayload(
          `${id} is not an input of this ${kind}; it takes ${inputs.length ? inputs.join(', ') : 'no params'}.`,
          id,
          { allowedParams: inputs },
        );
      }
    }
    const model = this.catalog.models.find((m) => m.id === preset.modelId)!;
    const version = model.versions.find((v) => v.id === preset.versionId)!;
    // spec 4 rule 2: supplied params over the preset's fixed ones and its editable defaults.
    const defs = [...preset.params, ...model.params.filter((d) => !preset.params.some((p) => p.id === d.id))];
    const params = { ...preset.fixedParams, ...supplied };
    const markup = 'markup' in preset ? preset.markup : 0;
    return { model, version, supplied, params, defs, markup };
  }

  private priced(body: unknown) {
    const { model, version, params: merged, defs, markup } = this.resolveSelector(body);
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
    const task = path ? [...this.tasks.values()].find((t) => t.outputPath === path) : undefined;
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

  /** spec 4 POST /tasks rules 1-8, in order: replay, selectors, funds gates, params, price, moderation, cap, charge. */
  submitTask(key: KeyRecord, body: unknown, idempotencyKey: string | undefined) {
    this.settle();
    const now = this.clock.now();
    if (idempotencyKey !== undefined && (idempotencyKey.length < 1 || idempotencyKey.length > 256)) {
      throw new SandboxError(400, 'invalid_idempotency_key', 'Idempotency-Key must be 1 to 256 characters.', {
        param: 'Idempotency-Key',
      });
    }
    const idemId = idempotencyKey === undefined ? undefined : `${key.id}:${idempotencyKey}`;
    const previous = idemId ? this.idempotency.get(idemId) : undefined;
    if (previous && now - previous.at < IDEMPOTENCY_MS) {
      const task = this.tasks.get(previous.taskId)!;
      return {
        taskId: task.id,
        status: this.statusOf(task, now),
        modelId: task.model.id,
        versionId: task.versionId,
        idempotent: true,
      };
    }

    this.requireProject(key);
    this.requireNotInArrears(key);
    const cap = key.dailyCreditCap;
    const spent = this.spentToday(key);
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
    const account = this.account(key);
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

    const task = this.schedule(key, model, version.id, params, this.charge(key, credits), now);
    if (idemId) this.idempotency.set(idemId, { taskId: task.id, at: now });
    return { taskId: task.id, status: 'queued' as const, modelId: model.id, versionId: version.id };
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
        slotFreeAt: new Array<number>(this.account(key).concurrency).fill(0),
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
    this.tasks.set(task.id, task);
    this.unsettled.push(task);
    if (outcome === 'succeeded') this.prepareOutput(task);
    return task;
  }

  private prepareOutput(task: TaskRecord, warm = true): void {
    const plan = planOutput(task.model, task.versionId, task.params, task.id);
    const render = async () => {
      const source = plan.sourceParam ? await this.sourceBytes(task.params[plan.sourceParam]) : undefined;
      if (!source) return renderMedia(plan.spec);
      const spec = await fitToSource(plan, source);
      return renderMedia(spec.kind === 'image' || spec.kind === 'video' ? { ...spec, source } : spec);
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
        if (this.tasks.get(task.id) !== task) return;
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
    if (task.settled)
      this.refund(
        this.keyList.find((k) => k.id === task.keyId),
        task.charge,
      );
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
  settle(): void {
    const now = this.clock.now();
    const due = this.unsettled.filter((t) => t.endAt <= now).sort((a, b) => a.endAt - b.endAt);
    if (!due.length) return;
    this.unsettled = this.unsettled.filter((t) => t.endAt > now);
    const keysById = new Map(this.keyList.map((k) => [k.id, k]));
    for (const task of due) {
      task.settled = true;
      if (task.outcome === 'succeeded') {
        const runs = this.runs.get(task.model.id) ?? [];
        runs.push((task.endAt - task.createdAt) / 1000);
        this.runs.set(task.model.id, runs.slice(-10));
      } else {
        this.refund(keysById.get(task.keyId), task.charge);
      }
    }
  }

  async getTask(key: KeyRecord, id: string) {
    const task = this.tasks.get(id);
    if (!task || task.keyId !== key.id) {
      throw new SandboxError(404, 'unknown_task', `No task "${id}" for this key.`);
    }
    // A task whose time is up answers once its output is made (or has failed to be), within a bound.
    const rendering = this.renders.get(task.id);
    if (rendering && this.clock.now() >= task.endAt) {
      await Promise.race([rendering, new Promise((r) => setTimeout(r, RENDER_WAIT_MS))]);
    }
    this.settle();
    const now = this.clock.now();
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
    const task = this.tasks.get(id);
    return !!task && this.statusOf(task, this.clock.now()) === 'succeeded';
  }

  // ---- uploads -------------------------------------------------------------------------------

  checkUploadHeaders(contentType: string | undefined, contentLength: number | undefined): string {
    const type = contentType?.split(';')[0]?.trim().toLowerCase();
    if (!type || !(UPLOAD_CONTENT_TYPES as readonly string[]).includes(type)) {
      throw invalidPayload(
        `Content-Type ${type ? `"${type}" ` : ''}is not accepted. Send the file's true type, one of: ${UPLOAD_CONTENT_TYPES.join(', ')}.`,
        'Content-Type',
        { allowedContentTypes: UPLOAD_CONTENT_TYPES },
      );
    }
    if (contentLength !== undefined && contentLength > UPLOAD_MAX_BYTES) throw fileTooLarge();
    return type;
  }

  async createUpload(key: KeyRecord, contentType: string, bytes: Buffer) {
    this.requireProject(key);
    if (bytes.length === 0) throw invalidPayload('The upload body is empty.');
    if (bytes.length > UPLOAD_MAX_BYTES) throw fileTooLarge();
    const kind = contentType.split('/')[0] as MediaKind;
    // The bytes must be what the Content-Type says (spec 4); a video that cannot be read ends errored.
    const verdict = await verifyUpload(bytes, contentType);
    if (verdict.ok === false) throw invalidPayload(verdict.reason, 'Content-Type');
    const blocked = bytes.includes(BLOCK_MARK);
    if (blocked && kind !== 'video') {
      throw new SandboxError(451, 'moderation_blocked', 'The file was rejected by content moderation.', {
        extra: { labels: MODERATION_LABELS },
      });
    }
    const probe = verdict.probe;
    const now = this.clock.now();
    const id = newId('upl');
    const record: UploadRecord = {
      id,
      keyId: key.id,
      kind,
      contentType,
      size: bytes.length,
      path: `/cdn/uploads/${id}.${EXT_OF[contentType] ?? 'bin'}`,
      createdAt: now,
      decidedAt: kind === 'video' ? now + this.config.moderationMs : now,
      outcome: blocked
        ? { status: 'blocked', labels: MODERATION_LABELS }
        : verdict.ok === 'unreadable'
          ? { status: 'errored', reason: verdict.reason }
          : kind === 'video' && bytes.includes(ERROR_MARK)
            ? { status: 'errored', reason: 'The video could not be decoded (sandbox SANDBOX-ERROR trigger).' }
            : { status: 'ready' },
      probe,
    };
    try {
      await this.media.putUpload(record.path, { bytes, contentType });
    } catch {
      throw new SandboxError(502, 'storage_upload_failed', 'The file could not be stored.');
    }
    this.uploads.set(id, record);
    this.uploadsByPath.set(record.path, record);
    if (kind === 'video') {
      return {
        status: 202,
        body: { status: 'processing' as const, uploadId: id, pollUrl: `/v1/uploads/${id}` },
      };
    }
    return {
      status: 200,
      body: { status: 'ready' as const, url: this.url(record.path), size: record.size, contentType },
    };
  }

  private uploadStatus(u: UploadRecord): UploadOutcome | { status: 'processing' } {
    return this.clock.now() < u.decidedAt ? { status: 'processing' } : u.outcome;
  }

  getUpload(key: KeyRecord, id: string) {
    const u = this.uploads.get(id);
    if (!u || u.keyId !== key.id)
      throw new SandboxError(404, 'unknown_upload', `No upload "${id}" for this key.`);
    const s = this.uploadStatus(u);
    switch (s.status) {
      case 'processing':
        return {
          status: 202,
          body: { status: 'processing', uploadId: u.id, pollUrl: `/v1/uploads/${u.id}` },
        };
      case 'ready':
        return {
          status: 200,
          body: { status: 'ready', url: this.url(u.path), size: u.size, contentType: u.contentType },
        };
      case 'blocked':
        return {
          status: 200,
          body: {
            status: 'blocked',
            labels: s.labels,
            error: 'The video was rejected by content moderation.',
          },
        };
      case 'errored':
        return { status: 200, body: { status: 'errored', reason: s.reason } };
    }
  }

  // ---- describe-image ------------------------------------------------------------------------

  async describe(key: KeyRecord, body: unknown) {
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
    const ref = this.mediaRef(imageUrl);
    if (!ref || ref.kind !== 'image') {
      throw invalidPayload(
        'imageUrl must be an image hosted by the service (upload it with POST /uploads first); external URLs are rejected.',
        'imageUrl',
      );
    }
    this.requireProject(key);
    this.requireNotInArrears(key);
    // The key's daily cap holds here too (spec 8): coarse when already met, precise for this credit.
    const cap = key.dailyCreditCap;
    if (cap !== null) {
      const spent = this.spentToday(key);
      if (spent >= cap) throw capReached(cap, spent, this.clock.now());
      if (spent + 1 > cap) {
        throw new SandboxError(
          402,
          'token_daily_cap_exceeded',
          `Describing an image costs 1 credit; with ${spent} of ${cap} spent today it would pass the key's daily cap.`,
          { extra: { spent, cap, credits: 1 } },
        );
      }
    }
    const account = this.account(key);
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
    const charge = this.charge(key, 1);
    const refunded = (status: number, code: string, message: string) => {
      this.refund(key, charge);
      return new SandboxError(status, code, `${message} The credit was refunded.`);
    };
    const file = await this.media.get(this.hostedPath(imageUrl) ?? '');
    if (!file) throw refunded(503, 'vision_unavailable', 'The image could not be read.');
    const bytes = file.bytes;
    if (bytes.includes('SANDBOX-REFUSE'))
      throw refunded(422, 'policy_violation', 'The vision model refused this image.');
    if (bytes.includes('SANDBOX-UPSTREAM'))
      throw refunded(429, 'upstream_rate_limited', 'The vision service is busy.');
    if (bytes.includes('SANDBOX-VISION-DOWN'))
      throw refunded(503, 'vision_unavailable', 'The vision service is unavailable.');
    try {
      return { credits: 1, ...(await describeImage(bytes, language as DescribeLanguage)) };
    } catch {
      throw refunded(503, 'vision_unavailable', 'The image could not be read.');
    }
  }

  // ---- CDN -----------------------------------------------------------------------------------

  async mediaFile(path: string): Promise<MediaFile | null> {
    this.settle();
    if (!this.isServable(path)) return null;
    return this.media.get(path);
  }
}

const capReached = (cap: number, spent: number, now: number) =>
  new SandboxError(429, 'token_daily_cap_reached', `This key's daily cap of ${cap} credits is reached.`, {
    headers: { 'Retry-After': String(Math.ceil(msToUtcMidnight(now) / 1000)) },
    extra: { spent, cap },
  });

const fileTooLarge = () =>
  new SandboxError(413, 'file_too_large', `The file is larger than ${UPLOAD_MAX_BYTES / 1024 / 1024} MB.`, {
    extra: { maxBytes: UPLOAD_MAX_BYTES },
  });
