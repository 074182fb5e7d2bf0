import { t } from '@lingui/core/macro';
import { z } from 'zod/mini';
import { OPTION_PARAM_TYPES, optionValue, type ParamDef } from '../../../contract/param';
import { TaskRequestSchema, type ParamValue, type TaskRequest } from '../../../contract/task';
import { fromBase64Url, toBase64Url } from '../../lib/base64url';
import type { HistorySection } from '../history/history-store';
import { searchForSelection, selectionOfRequest, type ResolvedSelection, type Selection } from '../selection';

// Presets (product-notes §3 "Presets, batches"): named form states, per connection, in IndexedDB. A preset is
// the request the open form would send (its selector, version included, and every param value: media
// params are service-hosted URLs, never bytes) under a name. Reads are parsed, never trusted; a preset
// made against older definitions applies what still fits (fitPreset) and says what it dropped.

// The record's schema has a module of its own: the team space reads presets without the selection code.
export { type Preset, type PortablePreset } from './preset-schema';
import { PresetSchema, type Preset, type PortablePreset } from './preset-schema';
import { formatList } from '../../lib/format';
import { Listeners } from '../../lib/store';
import { LocalRecords, type LocalIo } from '../local-records';

const ExportSchema = z.object({
  format: z.literal('media-studio-presets'),
  version: z.literal(1),
  presets: z.array(z.unknown()),
});

/** The item a request is for, whatever its version: presets are listed per item. */
export function itemKeyOf(request: Pick<TaskRequest, 'interfaceId' | 'aiTool' | 'template'>): string {
  if (request.interfaceId) return `model:${request.interfaceId}`;
  if (request.aiTool) return `tool:${request.aiTool}`;
  if (request.template) return `template:${request.template}`;
  return 'none';
}

export const selectionOfPreset = (preset: Pick<Preset, 'request' | 'category'>): Selection | null =>
  selectionOfRequest(preset.request, preset.category);

// ---------------------------------------------------------------------------------------------------
// Fit

export interface Dropped {
  /** The param id (or "version"). */
  id: string;
  reason: string;
}

export interface Fit {
  /** The params that still fit the item's definitions. */
  params: Record<string, ParamValue>;
  dropped: Dropped[];
}

const shown = (v: ParamValue) => {
  const text = Array.isArray(v) ? formatList(v.map(String)) : String(v);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
};

// Why a value was dropped, in the studio's language when the preset is applied (docs/i18n.md): the notice
// shows each after its param's id ("aspect_ratio: "4:3" is no longer an option").
const noLongerAnOption = (value: ParamValue) => {
  const text = shown(value);
  return t({
    message: `"${text}" is no longer an option`,
    comment: 'a preset value dropped: its param no longer offers it',
  });
};

/** Why a saved value no longer fits its param, or null when it does. */
function misfit(def: ParamDef, value: ParamValue): string | null {
  if (def.type === 'image_urls') {
    return Array.isArray(value) && value.every((u) => typeof u === 'string')
      ? null
      : t({ message: 'not a list of files', comment: 'a preset value dropped: the param takes files' });
  }
  if (Array.isArray(value))
    return t({ message: 'a list where one value is expected', comment: 'a preset value dropped: its shape' });
  const allowed = [...(def.options?.map(optionValue) ?? []), ...(def.enumValues ?? [])];
  const listed = allowed.some((a) => String(a) === String(value));
  if (OPTION_PARAM_TYPES.includes(def.type) && allowed.length > 0 && !listed) {
    return noLongerAnOption(value);
  }
  if (def.type === 'voice' && allowed.length > 0 && !listed && !/^https?:\/\//i.test(String(value))) {
    return noLongerAnOption(value);
  }
  return null;
}

/**
 * The preset's params that fit the item's current definitions (`defs`: the form's, a model's prompt
 * included), and what was dropped and why: a param the item no longer has, a value no longer among the
 * options, a value of the wrong shape; for a model, a version it no longer offers.
 */
export function fitPreset(request: TaskRequest, defs: readonly ParamDef[], target?: ResolvedSelection): Fit {
  const params: Record<string, ParamValue> = {};
  const dropped: Dropped[] = [];
  for (const [id, value] of Object.entries(request.params)) {
    const def = defs.find((d) => d.id === id);
    if (!def) {
      dropped.push({
        id,
        reason: t({
          message: 'no longer a setting of this item',
          comment: 'a preset value dropped: the param is gone',
        }),
      });
      continue;
    }
    const why = misfit(def, value);
    if (why) dropped.push({ id, reason: why });
    else params[id] = value;
  }
  if (
    target?.kind === 'model' &&
    request.versionId &&
    !target.model.versions.some((v) => v.id === request.versionId)
  ) {
    const version = request.versionId;
    dropped.unshift({
      id: 'version',
      reason: t({
        message: `version "${version}" is no longer offered`,
        comment: "a preset's model version, gone",
      }),
    });
  }
  return { params, dropped };
}

// ---------------------------------------------------------------------------------------------------
// Share links: the preset in the URL, beside the selection (never the key)

const PRESET_PARAM = 'preset';

const SharedSchema = z.object({
  name: PresetSchema.shape.name,
  itemName: PresetSchema.shape.itemName,
  category: PresetSchema.shape.category,
  request: TaskRequestSchema,
});
export type SharedPreset = z.infer<typeof SharedSchema>;

/** The search string of a link that opens the preset's item with the preset in it. */
export function presetShareSearch(
  preset: Pick<Preset, 'name' | 'itemName' | 'category' | 'request'>,
): string {
  const shared: SharedPreset = {
    name: preset.name,
    itemName: preset.itemName,
    ...(preset.category ? { category: preset.category } : {}),
    request: preset.request,
  };
  const q = new URLSearchParams(searchForSelection(selectionOfPreset(preset)));
  q.set(PRESET_PARAM, toBase64Url(JSON.stringify(shared)));
  return `?${q.toString()}`;
}

/** The preset a share link carries, or null when it has none (or an unreadable one). */
export function presetFromSearch(search: string): SharedPreset | null {
  const value = new URLSearchParams(search).get(PRESET_PARAM);
  if (!value) return null;
  try {
    const parsed = SharedSchema.safeParse(JSON.parse(fromBase64Url(value)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The search string without the preset, once it has been applied. */
export function withoutPresetParam(search: string): string {
  const q = new URLSearchParams(search);
  q.delete(PRESET_PARAM);
  const s = q.toString();
  return s ? `?${s}` : '';
}

// ---------------------------------------------------------------------------------------------------
// The store

export interface NewPreset {
  name: string;
  itemName: string;
  category?: string;
  request: TaskRequest;
}

export class PresetStore {
  private readonly byId = new Map<string, Preset>();
  private sorted: Preset[] | null = null;
  private readonly listeners = new Listeners();

  private constructor(
    readonly connectionId: string,
    private readonly now: () => number,
    private readonly newId: () => string,
    private readonly records: LocalRecords<'presets', Preset>,
  ) {}

  /** `db` and `onError`: the database and who hears of a failed write (connection-stores.ts). */
  static async open(
    connectionId: string,
    {
      now = Date.now,
      newId = () => crypto.randomUUID(),
      ...io
    }: { now?: () => number; newId?: () => string } & LocalIo,
  ): Promise<PresetStore> {
    const records = new LocalRecords('presets', connectionId, PresetSchema, io);
    const store = new PresetStore(connectionId, now, newId, records);
    try {
      for (const preset of await records.load()) {
        if (preset.connectionId === connectionId) store.byId.set(preset.id, preset);
      }
    } catch {
      // IndexedDB unavailable: presets still work in this tab.
    }
    return store;
  }

  subscribe = this.listeners.subscribe;

  /** Every preset of this connection, most recently saved first; the same array until a change. */
  list = (): Preset[] => {
    this.sorted ??= [...this.byId.values()].sort((a, b) => b.updatedAt - a.updatedAt);
    return this.sorted;
  };

  get(id: string): Preset | undefined {
    return this.byId.get(id);
  }

  forItem(itemKey: string): Preset[] {
    return this.list().filter((p) => itemKeyOf(p.request) === itemKey);
  }

  private changed(): void {
    this.sorted = null;
    this.listeners.notify();
  }

  private async write(preset: Preset): Promise<void> {
    this.byId.set(preset.id, preset);
    this.changed();
    try {
      // Written at once: a reload right after Save keeps the preset (commitNow).
      await this.records.write([{ put: preset }]);
    } catch {
      // Told to the reporter the store was opened with; kept in memory for this tab.
    }
  }

  /** Saves the form under a name; a preset of the same item with the same name is replaced. */
  async save(input: NewPreset): Promise<Preset> {
    const name = input.name.trim();
    const same = this.forItem(itemKeyOf(input.request)).find((p) => p.name === name);
    const at = this.now();
    const preset = PresetSchema.parse({
      id: same?.id ?? this.newId(),
      connectionId: this.connectionId,
      name,
      itemName: input.itemName,
      ...(input.category ? { category: input.category } : {}),
      request: structuredClone(input.request),
      createdAt: same?.createdAt ?? at,
      updatedAt: at,
    });
    await this.write(preset);
    return preset;
  }

  async rename(id: string, name: string): Promise<void> {
    const preset = this.byId.get(id);
    const trimmed = name.trim();
    if (!preset || !trimmed) return;
    await this.write({ ...preset, name: trimmed, updatedAt: this.now() });
  }

  /** Deletes a preset; returns it as it was, for `restore` (an "Undo"). */
  async remove(id: string): Promise<Preset | undefined> {
    const removed = this.byId.get(id);
    if (!removed) return undefined;
    this.byId.delete(id);
    this.changed();
    try {
      await this.records.write([{ remove: id }]);
    } catch {
      // See write.
    }
    return removed;
  }

  /** Puts back a preset `remove` returned, as it was (its id, name and dates). */
  async restore(preset: Preset): Promise<void> {
    await this.write(PresetSchema.parse({ ...preset, connectionId: this.connectionId }));
  }

  /** The presets as they leave this device (an export file, the history export): no connection. */
  portable(ids?: readonly string[]): PortablePreset[] {
    return this.list()
      .filter((p) => !ids || ids.includes(p.id))
      .map(({ connectionId: _c, ...rest }) => rest);
  }

  exportJson(ids?: readonly string[]): string {
    return JSON.stringify(
      { format: 'media-studio-presets', version: 1, presets: this.portable(ids) },
      null,
      1,
    );
  }

  /** Adds presets (an array of portable presets); unreadable ones are skipped and counted. */
  async importPortable(items: readonly unknown[]): Promise<{ added: number; skipped: number }> {
    const result = { added: 0, skipped: 0 };
    for (const raw of items) {
      const parsed = PresetSchema.safeParse({
        ...(typeof raw === 'object' && raw ? raw : {}),
        connectionId: this.connectionId,
      });
      if (!parsed.success) {
        result.skipped++;
        continue;
      }
      await this.write(parsed.data);
      result.added++;
    }
    return result;
  }

  /** A presets export file (exportJson); throws on a file that is not one. */
  async importJson(text: string): Promise<{ added: number; skipped: number }> {
    return this.importPortable(ExportSchema.parse(JSON.parse(text)).presets);
  }

  /** Its part of the history file (history-store's HistorySection). */
  historySection(): HistorySection {
    return {
      export: () => this.portable(),
      import: async (data) => {
        const { added, skipped } = await this.importPortable(Array.isArray(data) ? data : []);
        return { kept: added, skipped };
      },
    };
  }
}
