import type { ParamDef } from '../../../contract/param';
import type { ParamValue } from '../../../contract/task';
import { matchSelection, type ResolvedSelection } from '../../model/selection';
import { formDefs, type PromptRules } from './param-rules';

// What a form is for: the selection's definitions and the POST /tasks selector that goes with them
// (taskRequest, and its inverse, live in lib/selection: one home for Remix, presets and compare).

export type TargetKind = ResolvedSelection['kind'];

export interface FormTarget {
  kind: TargetKind;
  /** The model id or the tool / template slug. */
  id: string;
  /** The catalog's param definitions (for a model, without its prompt). */
  params: ParamDef[];
  /** Models only. */
  prompt?: PromptRules;
  /** What the form renders, in order (a model's prompt first). */
  defs: ParamDef[];
}

export function formTarget(target: ResolvedSelection): FormTarget {
  return matchSelection<ResolvedSelection, FormTarget>(target, {
    model: ({ model }) => {
      const prompt: PromptRules = {
        promptRequired: model.promptRequired,
        ...(model.promptMaxLength === undefined ? {} : { promptMaxLength: model.promptMaxLength }),
      };
      return {
        kind: 'model',
        id: model.id,
        params: model.params,
        prompt,
        defs: formDefs(model.params, prompt),
      };
    },
    // api-notes §4: only the editable params are defined; the tool's fixed ones are absent and never sent.
    tool: ({ tool }) => ({
      kind: 'tool',
      id: tool.slug,
      params: tool.params,
      defs: formDefs(tool.params),
    }),
    template: ({ template }) => ({
      kind: 'template',
      id: template.slug,
      params: template.params,
      defs: formDefs(template.params),
    }),
  });
}

/** The field a text prompt goes into: the model's prompt, or a tool's or template's param "prompt". */
export function promptDefOf(target: ResolvedSelection): ParamDef | undefined {
  const { defs } = formTarget(target);
  return defs.find((d) => d.id === 'prompt') ?? defs.find((d) => d.type === 'long_text');
}

/** "Use as prompt" (Describe image): the params with `text` as the prompt, or null when there is none. */
export function withPromptText(
  target: ResolvedSelection,
  params: Record<string, ParamValue>,
  text: string,
): Record<string, ParamValue> | null {
  const def = promptDefOf(target);
  return def ? { ...params, [def.id]: text } : null;
}
