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

const SELECTION_KEYS = ['model', 'version', 'category', 'tool', 'template'];

/** The search string for a selection, keeping unrelated query parameters. */
export function searchForSelection(selection: Selection | null, current = ''): string {
  const q = new URLSearchParams(current);
  for (const k of SELECTION_KEYS) q.delete(k);
  if (selection?.kind === 'model') {
    q.set('model', selection.modelId);
    if (selection.versionId) q.set('version', selection.versionId);
    if (selection.category) q.set('category', selection.category);
  } else if (selection?.kind === 'tool') {
    q.set('tool', selection.slug);
  } else if (selection?.kind === 'template') {
    q.set('template', selection.slug);
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

export const selectionKey = (s: Selection | null): string =>
  !s ? 'none' : s.kind === 'model' ? `model:${s.modelId}:${s.versionId ?? ''}` : `${s.kind}:${s.slug}`;

/** A selection with its catalog resource loaded: what the form is built from. */
export type ResolvedSelection =
  | { kind: 'model'; model: Model; versionId: string }
  | { kind: 'tool'; tool: AiTool }
  | { kind: 'template'; template: Template };

/** The exact POST /tasks body (api-notes §4): one selector, never two, and the params. */
export function taskRequest(target: ResolvedSelection, params: Record<string, ParamValue>): TaskRequest {
  switch (target.kind) {
    case 'model':
      return { interfaceId: target.model.id, versionId: target.versionId, params };
    case 'tool':
      return { aiTool: target.tool.slug, params };
    case 'template':
      return { template: target.template.slug, params };
  }
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
