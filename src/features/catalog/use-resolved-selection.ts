import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useApi } from '../../api/api-context';
import { ApiError, toApiError } from '../../api/errors';
import { catalogQueries } from '../../api/queries/catalog-queries';
import type { Model } from '../../../contract/catalog';
import { CATEGORIES } from '../../../contract/category';
import type { ResolvedSelection, Selection } from '../../model/selection';
import { parseCategory } from '../../model/category-labels';

// Turns a selection (as it comes from the URL) into the catalog resource the form is built from.
// A model is looked up in its category's list (GET /models has no single-model endpoint); a link
// without a category, or with a stale one, scans all 13 categories. Tools and templates have their own
// GET /{kind}/{slug}, whose 404 (unknown_ai_tool / unknown_template) is the error state.

export interface ResolvedSelectionState {
  status: 'idle' | 'loading' | 'ready' | 'error';
  resolved?: ResolvedSelection;
  error?: ApiError;
}

const IDLE: ResolvedSelectionState = { status: 'idle' };
const LOADING: ResolvedSelectionState = { status: 'loading' };

/** The version asked for when the model has it, else the model's first version. */
const pickVersionId = (model: Model, versionId?: string): string =>
  (versionId !== undefined && model.versions.some((v) => v.id === versionId)
    ? versionId
    : model.versions[0]?.id) ?? '';

const unknownModel = (modelId: string) =>
  new ApiError({
    status: 404,
    code: 'unknown_model',
    type: 'invalid_request_error',
    extra: { modelId },
  });

export function useResolvedSelection(selection: Selection | null): ResolvedSelectionState {
  const { client, connectionId } = useApi();
  const modelSel = selection?.kind === 'model' ? selection : null;
  const toolSlug = selection?.kind === 'tool' ? selection.slug : undefined;
  const templateSlug = selection?.kind === 'template' ? selection.slug : undefined;

  // 1. The category the selection names, when it names a real one.
  const hinted = modelSel ? parseCategory(modelSel.category) : undefined;
  const hintedQuery = useQuery({
    ...catalogQueries.models(
      client,
      connectionId,
      (hinted ?? CATEGORIES[0]).type,
      (hinted ?? CATEGORIES[0]).subType,
    ),
    enabled: hinted !== undefined,
  });
  const inHinted =
    modelSel && hinted ? hintedQuery.data?.items.find((m) => m.id === modelSel.modelId) : undefined;

  // 2. When there is no usable hint, or the model is not where the hint says: the first category (the
  // catalog's default, whose list the catalog shows anyway) first, then every other one. A link to a
  // model of the default category costs one request, not 13 (total blocking time, docs/benchmarks.md
  // "lighthouse").
  const scan =
    modelSel !== null && (hinted === undefined || (hintedQuery.isSuccess && inHinted === undefined));
  const first = CATEGORIES[0];
  const others = CATEGORIES.slice(1);
  const firstQuery = useQuery({
    ...catalogQueries.models(client, connectionId, first.type, first.subType),
    enabled: scan,
  });
  const inFirst = modelSel ? firstQuery.data?.items.find((m) => m.id === modelSel.modelId) : undefined;
  const scanOthers = scan && (firstQuery.isError || (firstQuery.isSuccess && inFirst === undefined));
  const scanned = useQueries({
    queries: others.map((c) => ({
      ...catalogQueries.models(client, connectionId, c.type, c.subType),
      enabled: scanOthers,
    })),
  });

  let model: Model | undefined = inHinted;
  let modelError: unknown;
  let modelPending = false;
  if (modelSel && !model) {
    if (hinted && !hintedQuery.isSuccess) {
      modelPending = hintedQuery.isPending;
      modelError = hintedQuery.error ?? undefined;
    } else if (inFirst) {
      model = inFirst;
    } else if (!scanOthers) {
      modelPending = firstQuery.isPending;
    } else {
      for (const q of scanned) {
        model = q.data?.items.find((m) => m.id === modelSel.modelId);
        if (model) break;
      }
      if (!model) {
        modelPending = scanned.some((q) => q.isPending);
        // The model may sit in a category that failed to load: that failure is the honest answer.
        modelError =
          (firstQuery.isError ? firstQuery.error : scanned.find((q) => q.isError)?.error) ?? undefined;
      }
    }
  }

  const tool = useQuery({
    ...catalogQueries.aiTool(client, connectionId, toolSlug ?? ''),
    enabled: toolSlug !== undefined,
  });
  const template = useQuery({
    ...catalogQueries.template(client, connectionId, templateSlug ?? ''),
    enabled: templateSlug !== undefined,
  });

  const versionId = model ? pickVersionId(model, modelSel?.versionId) : undefined;
  const modelId = modelSel?.modelId;
  const kind = selection?.kind;
  const toolData = toolSlug !== undefined ? tool.data : undefined;
  const templateData = templateSlug !== undefined ? template.data : undefined;
  const toolError = toolSlug !== undefined ? tool.error : null;
  const templateError = templateSlug !== undefined ? template.error : null;

  return useMemo((): ResolvedSelectionState => {
    switch (kind) {
      case undefined:
        return IDLE;
      case 'model':
        if (model && versionId !== undefined)
          return { status: 'ready', resolved: { kind: 'model', model, versionId } };
        if (modelPending) return LOADING;
        if (modelError) return { status: 'error', error: toApiError(modelError) };
        return { status: 'error', error: unknownModel(modelId ?? '') };
      case 'tool':
        if (toolData) return { status: 'ready', resolved: { kind: 'tool', tool: toolData } };
        if (toolError) return { status: 'error', error: toApiError(toolError) };
        return LOADING;
      case 'template':
        if (templateData) return { status: 'ready', resolved: { kind: 'template', template: templateData } };
        if (templateError) return { status: 'error', error: toApiError(templateError) };
        return LOADING;
    }
  }, [
    kind,
    model,
    versionId,
    modelPending,
    modelError,
    modelId,
    toolData,
    toolError,
    templateData,
    templateError,
  ]);
}
