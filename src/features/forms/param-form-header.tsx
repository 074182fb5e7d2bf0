import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type ReactNode } from 'react';
import { Badge } from '../../components/badge';
import { matchSelection, type ResolvedSelection } from '../../model/selection';
import { displayText } from '../../lib/untrusted-text';
import { originOf } from './param-rules';

const LONG_TEXT = 280;

/** Untrusted catalog text, clamped when long, with a toggle; rendered as text only. */
function Blurb({ text: raw }: { text: string }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const text = displayText(raw);
  if (!text.trim()) return null;
  const long = text.length > LONG_TEXT;
  return (
    <div className="text-sm text-slate-600 dark:text-slate-400">
      <p
        dir="auto"
        translate="no"
        className={long && !open ? 'line-clamp-3 [overflow-wrap:anywhere]' : '[overflow-wrap:anywhere]'}
      >
        {text}
      </p>
      {long && (
        <button
          type="button"
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          className="mt-1 text-xs font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300"
        >
          {open ? t`Show less` : t`Show more`}
        </button>
      )}
    </div>
  );
}

/** The form's title: name, brand (model) or Official / Community (template), and the description. */
export function ParamFormHeader({ target, titleId }: { target: ResolvedSelection; titleId: string }) {
  const head = matchSelection<ResolvedSelection, { name: string; text: string; meta: ReactNode }>(target, {
    model: ({ model }) => {
      const logo = model.brand.logo && originOf(model.brand.logo) ? model.brand.logo : null;
      return {
        name: model.name,
        text: model.description,
        meta: (
          <span className="inline-flex min-w-0 items-center gap-1.5 text-sm text-slate-600 dark:text-slate-400">
            {logo && <img src={logo} alt="" className="size-5 shrink-0 rounded object-contain" />}
            <span dir="auto" translate="no" className="truncate">
              {displayText(model.brand.name)}
            </span>
          </span>
        ),
      };
    },
    tool: ({ tool }) => {
      const { mediaType } = tool;
      return {
        name: tool.name,
        text: tool.summary,
        meta: (
          <Badge tone="accent">
            <Trans>AI tool · {mediaType}</Trans>
          </Badge>
        ),
      };
    },
    template: ({ template }) => ({
      name: template.name,
      text: template.summary,
      meta: template.official ? (
        <Badge tone="success">
          <Trans>Official</Trans>
        </Badge>
      ) : (
        <Badge tone="neutral">
          <Trans>Community</Trans>
        </Badge>
      ),
    }),
  });
  const name = displayText(head.name);
  return (
    <header className="flex flex-col gap-1.5">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">{head.meta}</div>
      {/* A catalog name can be thousands of characters: clamped on screen, whole in the title and the name. */}
      <h2
        id={titleId}
        dir="auto"
        translate="no"
        title={name.length > 120 ? name : undefined}
        className="line-clamp-3 text-lg font-semibold tracking-tight text-slate-900 [overflow-wrap:anywhere] dark:text-white"
      >
        {name}
      </h2>
      <Blurb text={head.text} />
    </header>
  );
}
