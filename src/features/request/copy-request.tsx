import { ph } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Check, Code2, Copy } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useState } from 'react';
import { useApi } from '../../api/api-context';
import { toCurl, toFetchCode } from '../../api/request-code';
import type { TaskRequest } from '../../../contract/task';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';

// "Copy request" (product-notes §3): the exact POST /tasks the studio would send, as curl and as fetch code,
// with the key replaced by $API_KEY. Every request is inspectable.

function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useLingui();
  const [copied, setCopied] = useState(false);
  return (
    <Button
      size="sm"
      variant="secondary"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 1500);
        });
      }}
    >
      {copied ? (
        <Check className="size-3.5" aria-hidden="true" />
      ) : (
        <Copy className="size-3.5" aria-hidden="true" />
      )}
      {copied ? t`Copied` : label}
    </Button>
  );
}

export function CopyRequestButton({ request }: { request: TaskRequest | null }) {
  const { t } = useLingui();
  const { client } = useApi();
  const [open, setOpen] = useState(false);
  const description = request ? client.describeRequest(request) : null;
  const variants = description
    ? [
        { id: 'curl', label: 'curl', code: toCurl(description) },
        { id: 'fetch', label: 'fetch', code: toFetchCode(description) },
      ]
    : [];
  return (
    <>
      <Button variant="ghost" onClick={() => setOpen(true)} disabled={!request}>
        <Code2 className="size-4" aria-hidden="true" />
        <Trans>Copy request</Trans>
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        wide
        title={t`Copy request`}
        description={t`The exact POST /tasks this form sends. Set API_KEY in your shell or code; the key is never included.`}
      >
        <Tabs.Root defaultValue="curl">
          <Tabs.List
            aria-label={t`Format`}
            className="mb-3 flex gap-1 border-b border-slate-200 dark:border-slate-700"
          >
            {variants.map((v) => (
              <Tabs.Trigger
                key={v.id}
                value={v.id}
                className="-mb-px border-b-2 border-transparent px-3 py-1.5 text-sm font-medium text-slate-600 data-[state=active]:border-indigo-600 data-[state=active]:text-slate-950 dark:text-slate-400 dark:data-[state=active]:text-white"
              >
                {v.label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {variants.map((v) => (
            <Tabs.Content key={v.id} value={v.id} className="flex flex-col gap-2">
              <pre
                className="max-h-[50vh] overflow-auto rounded-lg bg-slate-950 p-4 font-mono text-xs leading-relaxed text-slate-100"
                data-testid={`request-${v.id}`}
                tabIndex={0}
              >
                {v.code}
              </pre>
              <div className="flex justify-end">
                <CopyButton text={v.code} label={t`Copy ${ph({ format: v.label })}`} />
              </div>
            </Tabs.Content>
          ))}
        </Tabs.Root>
      </Dialog>
    </>
  );
}
