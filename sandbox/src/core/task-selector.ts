import type { CatalogViews } from './catalog-views';
import { SandboxError, invalidPayload } from './errors';
import { checkParamsShape } from './params';

// What a quote or a task runs (api-notes §4 POST /tasks rules 2 and 3): a raw model version, or an AI tool or
// template over one, and the params and definitions that apply once the preset's own are merged in.

export function resolveSelector(views: CatalogViews, body: unknown) {
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
    const model = views.catalog.models.find((m) => m.id === b.interfaceId);
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
    b.aiTool !== undefined ? views.findTool(b.aiTool as string) : views.findTemplate(b.template as string);
  const kind = b.aiTool !== undefined ? 'AI tool' : 'template';
  // api-notes §4 rule 3 and GET /templates/{slug}: a preset takes exactly the inputs it lists; the ones it
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
  const model = views.catalog.models.find((m) => m.id === preset.modelId)!;
  const version = model.versions.find((v) => v.id === preset.versionId)!;
  // api-notes §4 rule 2: supplied params over the preset's fixed ones and its editable defaults.
  const defs = [...preset.params, ...model.params.filter((d) => !preset.params.some((p) => p.id === d.id))];
  const params = { ...preset.fixedParams, ...supplied };
  const markup = 'markup' in preset ? preset.markup : 0;
  return { model, version, supplied, params, defs, markup };
}
