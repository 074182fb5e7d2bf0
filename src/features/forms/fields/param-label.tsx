import { useId, type ReactNode } from 'react';
import type { ParamDef } from '../../../../contract/param';
import { paramLabel } from '../param-rules';
import type { Focusable } from './field-props';

// Catalog text (labels, descriptions) is untrusted: it is only ever a React text child, never HTML.
// dir="auto" translate="no" lets right-to-left names and descriptions read in their own direction.

export interface ParamLabel {
  /** The label text: displayName, or the id when there is none (product-notes §5). */
  text: string;
  /** The id of the element holding the text, for aria-labelledby on groups. */
  id: string;
  node: ReactNode;
}

export function useParamLabel(def: ParamDef): ParamLabel {
  const id = useId();
  const text = paramLabel(def);
  return {
    text,
    id,
    node: (
      <span id={id} dir="auto" translate="no">
        {text}
      </span>
    ),
  };
}

export const paramDescription = (def: ParamDef): ReactNode =>
  def.description ? (
    <span dir="auto" translate="no">
      {def.description}
    </span>
  ) : undefined;

const FOCUSABLE = 'input:not([type="hidden"]), select, textarea, button';
/** A radio group's checked radio first: the one its tab stop is on. */
const CHECKED = '[data-state="checked"], input[type="radio"]:checked';

/**
 * A callback ref for a field made of several controls: the form's "focus the field in error" lands on
 * the checked radio, else the first control inside.
 */
export const groupFocusRef =
  (inputRef: ((target: Focusable | null) => void) | undefined) =>
  (element: HTMLElement | null): void =>
    inputRef?.(
      element
        ? {
            focus: () =>
              (
                element.querySelector<HTMLElement>(CHECKED) ??
                element.querySelector<HTMLElement>(FOCUSABLE) ??
                element
              ).focus(),
          }
        : null,
    );
