import type { AiTool, Model, Template } from '../../contract/catalog';
import type { ParamValue, TaskRequest } from '../../contract/task';

// What the studio has open, as it appears in the URL (?model=&version=, ?tool=, ?template=) so a
// setup can be linked and reloaded. The API key never goes here.

export type Selection =
  | {
      kind: 'model';
      modelId: string;
      versionId?: string;
      /** "image/default": saves a catalog scan */ category?: string;
    }
  | { kind: 'tool'; slug: string }
  | { kind: 'template'; slug: string };

export function selectionFromSearch(search: string): Selection | null {
  const q = new URLSearchParams(search);
  const model = q.get('model');
  if (model) {
    return {
      kind: 'model',
      modelId: model,
      ...(q.get('version') ? { versionId: q.get('version')! } : {}),
      ...(q.get('category') ? { category: q.get('category')! } : {}),
    };
  }
  const tool = q.get('tool');
  if (tool) return { kind: 'tool', slug: tool };
  const template = q.get('template');
  if (template) return { kind: 'template', slug: template };
  return null;
}

/** The kinds of thing that can be open: a model, an AI tool, a template. */
export type SelectionKind = Selection['kind'];

/** One handler per kind, each given the value narrowed to its kind. */
export type KindCases<T extends { kind: SelectionKind }, R> = {
  [K in SelectionKind]: (value: Extract<T, { kind: K }>) => R;
};

/**
 * The one switch on what is open (a Selection, a ResolvedSelection, or anything else keyed by the same
 * kinds): `cases` must name every kind, so a kind added to Selection fails to compile wherever one is
 * not handled, instead of falling through a chain of ternaries to the last branch.
 */
export function matchSelection<T extends { kind: SelectionKind }, R>(value: T, cases: KindCases<T, R>): R {
  const handle = cases[value.kind] as (narrowed: T) => R;
  return handle(value);
}

const SELECTION_KEYS = ['model', 'version', 'category', 'tool', 'template'];

/** The search string for a selection, keeping unrelated query parameters. */
export function searchForSelection(selection: Selection | null, current = ''): string {
  const q = new URLSearchParams(current);
  for (const k of SELECTION_KEYS) q.delete(k);
  if (selection) {
    matchSelection(selection, {
      model: (m) => {
        q.set('model', m.modelId);
        if (m.versionId) q.set('version', m.versionId);
        if (m.category) q.set('category', m.category);
      },
      tool: (tool) => q.set('tool', tool.slug),
      template: (template) => q.set('template', template.slug),
    });
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

export const selectionKey = (s: Selection | null): string =>
  !s
    ? 'none'
    : matchSelection(s, {
        model: (m) => `model:${m.modelId}:${m.versionId ?? ''}`,
        tool: (tool) => `tool:${tool.slug}`,
        template: (template) => `template:${template.slug}`,
      });

/** A selection with its catalog resource loaded: what the form is built from. */
export type ResolvedSelection =
  | { kind: 'model'; model: Model; versionId: string }
  | { kind: 'tool'; tool: AiTool }
  | { kind: 'template'; template: Template };

/** The exact POST /tasks body (api-notes §4): one selector, never two, and the params. */
export function taskRequest(target: ResolvedSelection, params: Record<string, ParamValue>): TaskRequest {
  return matchSelection<ResolvedSelection, TaskRequest>(target, {
    model: (m) => ({ interfaceId: m.model.id, versionId: m.versionId, params }),
    tool: (tool) => ({ aiTool: tool.tool.slug, params }),
    template: (template) => ({ template: template.template.slug, params }),
  });
}

/**
 * The inverse of taskRequest: the selection a request was made for (Remix, presets, share links).
 * `category` ("image/default") saves the catalog a scan when the caller knows it.
 */
export function selectionOfRequest(
  request: Pick<TaskRequest, 'interfaceId' | 'versionId' | 'aiTool' | 'template'>,
  category?: string,
): Selection | null {
  if (request.interfaceId) {
    return {
      kind: 'model',
      modelId: request.interfaceId,
      ...(request.versionId ? { versionId: request.versionId } : {}),
      ...(category ? { category } : {}),
    };
  }
  if (request.aiTool) return { kind: 'tool', slug: request.aiTool };
  if (request.template) return { kind: 'template', slug: request.template };
  return null;
}
