import { Trans, useLingui } from '@lingui/react/macro';
import { Tag, X } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { cn } from '../../lib/cn';
import { displayText } from '../../lib/untrusted-text';
import { Button } from '../button';
import { inputClass } from '../field';
import { MAX_TAG_LENGTH, normalizeTag } from '../../model/history/tags';
import { useOutputTags, useSearchStores, type OutputTags } from './search-stores';

// "Add tag" (docs/using.md "Tags"): on one output (the Viewer, with its tags listed, each of this member's
// removable) or on a selection at once (the Gallery's toolbar). Tags are text other members wrote: shown as
// React text only. Tags are searchable with `tag:`.

/** The tags of one output, and "Add tag". Nothing without the stores. */
export function OutputTagList({ outputKey }: { outputKey: string }) {
  const stores = useSearchStores();
  const { t } = useLingui();
  const all = useOutputTags();
  if (!stores) return null;
  const tags = all.get(outputKey) ?? [];
  const mine = new Set(stores.tags.mine(outputKey));
  return (
    <div className="flex flex-col gap-1.5">
      {tags.length > 0 && (
        <ul aria-label={t`Tags`} className="flex flex-wrap gap-1.5">
          {tags.map((tag) => (
            <li
              key={tag}
              data-testid="output-tag"
              className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-0.5 ps-2.5 pe-1 text-xs text-slate-800 dark:bg-slate-800 dark:text-slate-100"
            >
              <span>{displayText(tag)}</span>
              {mine.has(tag) ? (
                <button
                  type="button"
                  className="rounded-full p-0.5 hover:bg-slate-200 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-700"
                  aria-label={t`Remove tag ${tag}`}
                  onClick={() => stores.tags.remove([outputKey], tag)}
                >
                  <X className="size-3" aria-hidden="true" />
                </button>
              ) : (
                <span className="pe-1.5" />
              )}
            </li>
          ))}
        </ul>
      )}
      <AddTag tags={stores.tags} outputKeys={[outputKey]} />
    </div>
  );
}

/** "Add tag" for the outputs given: a button that opens a small form (Enter adds, Escape closes). */
export function AddTag({
  tags,
  outputKeys,
  size = 'sm',
}: {
  tags: OutputTags;
  outputKeys: readonly string[];
  size?: 'sm' | 'md';
}) {
  const { t } = useLingui();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const tag = normalizeTag(text);
    if (!tag.ok) {
      setProblem(
        tag.error === 'empty'
          ? t`Type a tag first.`
          : tag.error === 'too-long'
            ? t`A tag is at most ${MAX_TAG_LENGTH} characters.`
            : t`A tag takes letters, digits, - and _ (spaces become -).`,
      );
      return;
    }
    tags.add(outputKeys, tag.tag);
    setText('');
    setProblem('');
  };
  if (!open)
    return (
      <div>
        <Button size={size} aria-expanded={false} aria-controls={`${id}-form`} onClick={() => setOpen(true)}>
          <Tag className="size-4" aria-hidden="true" />
          <Trans>Add tag</Trans>
        </Button>
      </div>
    );
  return (
    <form
      id={`${id}-form`}
      className="flex flex-wrap items-center gap-1.5"
      onSubmit={submit}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        // Closes the form only: not the Viewer, not the selection.
        e.stopPropagation();
        setOpen(false);
      }}
    >
      <label htmlFor={`${id}-tag`} className="sr-only">
        <Trans>New tag</Trans>
      </label>
      <input
        id={`${id}-tag`}
        autoFocus
        className={cn(inputClass, 'h-8 w-36 py-1 text-sm')}
        value={text}
        maxLength={60}
        placeholder={t`tag`}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onChange={(e) => setText(e.target.value)}
      />
      <Button size="sm" type="submit">
        <Trans>Add tag</Trans>
      </Button>
      <Button size="sm" variant="ghost" aria-expanded onClick={() => setOpen(false)}>
        <Trans>Close</Trans>
      </Button>
      {problem && (
        <p id={`${id}-problem`} role="alert" className="w-full text-xs text-rose-700 dark:text-rose-300">
          {problem}
        </p>
      )}
    </form>
  );
}
