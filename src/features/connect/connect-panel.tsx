import { Trans, useLingui } from '@lingui/react/macro';
import { Eye, EyeOff, KeyRound, PlugZap } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { Field, inputClass } from '../../components/field';
import { nextTask } from '../../lib/next-task';
import { useLoaded } from '../../lib/use-loaded';
import type * as Notes from './connect-notes';
import type { ConnectionState, Credentials } from './use-connection';

interface DemoKey {
  name: string;
  key: string;
  description?: string;
}

interface ConnectPanelProps {
  state: ConnectionState;
  defaultBaseUrl: string;
  /** The sandbox's demo-key list (only when the studio was started with a sandbox). */
  demoKeysUrl?: string;
  /** The API origins the studio's CSP allows (config.json apiOrigins); undefined when not said. */
  apiOrigins?: readonly string[];
  onConnect: (credentials: Credentials) => void;
  /** True until /config.json is read: Connect waits for the Base URL it names. */
  awaitingConfig?: boolean;
}

/**
 * What the form says beside its fields (why a connection failed, a Base URL the CSP would block): a chunk
 * of its own, as the first screen shows neither (docs/benchmarks.md "bundle"). Loaded after the first
 * render, in a task of its own (lib/next-task.ts), so it is at hand before any note is due, even when the
 * network goes away meanwhile; if it could not be loaded at all, an error is still told, in words alone.
 */
const unstyledNotes: typeof Notes = {
  ConnectErrorNote: ({ error }) => (
    <p role="alert" className="text-sm font-medium text-rose-700 dark:text-rose-400">
      {error.message} {error.remedy}
    </p>
  ),
  BlockedOriginNote: () => null,
};

/** @internal Exported for the tests, which wait for the notes. */
export const loadConnectNotes = () =>
  nextTask()
    .then(() => import('./connect-notes'))
    .catch(() => unstyledNotes);

/** Base URL + API key + Connect (product-notes §3, Connect and account). Nothing typed is lost on an error. */
export function ConnectPanel({
  state,
  defaultBaseUrl,
  demoKeysUrl,
  apiOrigins,
  onConnect,
  awaitingConfig = false,
}: ConnectPanelProps) {
  const { t } = useLingui();
  const notes = useLoaded(loadConnectNotes);
  const pending = state.status === 'connecting' ? state.credentials : null;
  const [baseUrl, setBaseUrl] = useState(pending?.baseUrl ?? defaultBaseUrl);
  const [apiKey, setApiKey] = useState(pending?.apiKey ?? '');
  const [remember, setRemember] = useState(pending?.remember ?? false);
  const [showKey, setShowKey] = useState(false);
  // null while the list loads: its field is drawn from the start, so the form does not grow (and the
  // centred screen jump) when the list arrives.
  const [demoKeys, setDemoKeys] = useState<DemoKey[] | null>(demoKeysUrl ? null : []);
  const error = state.status === 'disconnected' ? state.error : undefined;

  // The first render is the prerendered screen (index.html): no config and no stored key yet. What
  // arrives after fills the form, unless the visitor already typed there.
  const [seen, setSeen] = useState({ pending, defaultBaseUrl, demoKeysUrl });
  if (
    seen.pending !== pending ||
    seen.defaultBaseUrl !== defaultBaseUrl ||
    seen.demoKeysUrl !== demoKeysUrl
  ) {
    setSeen({ pending, defaultBaseUrl, demoKeysUrl });
    if (pending && pending !== seen.pending) {
      setBaseUrl(pending.baseUrl);
      setApiKey(pending.apiKey);
      setRemember(pending.remember);
    } else if (defaultBaseUrl !== seen.defaultBaseUrl && baseUrl === seen.defaultBaseUrl) {
      setBaseUrl(defaultBaseUrl);
    }
    if (demoKeysUrl !== seen.demoKeysUrl) setDemoKeys(demoKeysUrl ? null : []);
  }

  // What was typed into the prerendered form before the JavaScript took it over is kept (hydration
  // leaves the fields as they are, without telling the form).
  const baseUrlInput = useRef<HTMLInputElement>(null);
  const apiKeyInput = useRef<HTMLInputElement>(null);
  const rememberInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (baseUrlInput.current) setBaseUrl(baseUrlInput.current.value);
    if (apiKeyInput.current) setApiKey(apiKeyInput.current.value);
    if (rememberInput.current) setRemember(rememberInput.current.checked);
  }, []);

  useEffect(() => {
    if (!demoKeysUrl) return;
    const controller = new AbortController();
    fetch(demoKeysUrl, { signal: controller.signal })
      .then((r) => (r.ok ? r.json() : []))
      .then((list: unknown) => {
        setDemoKeys(
          Array.isArray(list)
            ? list.filter((k): k is DemoKey => typeof k?.name === 'string' && typeof k?.key === 'string')
            : [],
        );
      })
      .catch(() => {
        if (!controller.signal.aborted) setDemoKeys([]);
      });
    return () => controller.abort();
  }, [demoKeysUrl]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    onConnect({ baseUrl: baseUrl.trim(), apiKey: apiKey.trim(), remember });
  };

  const urlProblem =
    baseUrl.trim() && !/^https?:\/\/[^\s]+$/.test(baseUrl.trim())
      ? t`Enter a URL starting with http:// or https://`
      : undefined;

  return (
    <form
      onSubmit={submit}
      aria-labelledby="connect-title"
      className="mx-auto flex w-full max-w-md flex-col gap-4 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800"
    >
      <div className="flex items-center gap-3">
        <span className="grid size-10 place-items-center rounded-xl bg-indigo-50 text-indigo-600 dark:bg-indigo-950 dark:text-indigo-300">
          <PlugZap className="size-5" aria-hidden="true" />
        </span>
        <div>
          <h2 id="connect-title" className="text-base font-semibold">
            <Trans>Connect to the API</Trans>
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            <Trans>Your key stays in this browser.</Trans>
          </p>
        </div>
      </div>

      <Field label={t`Base URL`} error={urlProblem}>
        {(p) => (
          <input
            {...p}
            ref={baseUrlInput}
            className={inputClass}
            type="url"
            inputMode="url"
            autoComplete="url"
            spellCheck={false}
            value={baseUrl}
            onChange={(e) => setBaseUrl(e.target.value)}
            required
          />
        )}
      </Field>
      {notes && apiOrigins && !urlProblem && (
        <notes.BlockedOriginNote baseUrl={baseUrl} apiOrigins={apiOrigins} />
      )}

      <Field label={t`API key`} description={t`Sent only in the Authorization header, never in a URL.`}>
        {(p) => (
          <div className="flex gap-2">
            <input
              {...p}
              ref={apiKeyInput}
              className={`${inputClass} font-mono`}
              type={showKey ? 'text' : 'password'}
              autoComplete="off"
              spellCheck={false}
              // eslint-disable-next-line lingui/no-unlocalized-strings -- a key's format, in every language
              placeholder="gm_live_…"
              value={apiKey}
              onChange={(e) => setApiKey(e.target.value)}
              required
            />
            <Button
              variant="secondary"
              aria-label={showKey ? t`Hide key` : t`Show key`}
              aria-pressed={showKey}
              onClick={() => setShowKey((s) => !s)}
            >
              {showKey ? (
                <EyeOff className="size-4" aria-hidden="true" />
              ) : (
                <Eye className="size-4" aria-hidden="true" />
              )}
            </Button>
          </div>
        )}
      </Field>

      {/* Until /config.json says whether a sandbox is there, its field's place is kept (invisible), so
          the form does not grow when it appears: the prerendered screen does not know yet. */}
      {(awaitingConfig || demoKeys === null || demoKeys.length > 0) && (
        <div className={awaitingConfig ? 'invisible' : undefined} aria-hidden={awaitingConfig || undefined}>
          <Field
            label={t`Sandbox demo key`}
            description={t`This studio runs with a local sandbox: pick a demo key to try it.`}
          >
            {(p) => (
              <select
                {...p}
                className={inputClass}
                disabled={demoKeys === null}
                value={demoKeys?.find((k) => k.key === apiKey)?.name ?? ''}
                onChange={(e) => setApiKey(demoKeys?.find((k) => k.name === e.target.value)?.key ?? apiKey)}
              >
                <option value="">{demoKeys === null ? t`Loading demo keys…` : t`Choose a demo key…`}</option>
                {demoKeys?.map((k) => (
                  <option key={k.name} value={k.name}>
                    {k.name}
                    {k.description ? `: ${k.description}` : ''}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
      )}

      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          ref={rememberInput}
          className="mt-0.5 size-4 rounded border-slate-300 accent-indigo-600"
          checked={remember}
          onChange={(e) => setRemember(e.target.checked)}
        />
        <span>
          <Trans>Remember this key on this device</Trans>
          <span className="block text-xs text-slate-500 dark:text-slate-400">
            <Trans>Off: the key is forgotten when this tab closes.</Trans>
          </span>
        </span>
      </label>

      {error && notes && <notes.ConnectErrorNote error={error} />}

      <Button
        type="submit"
        variant="primary"
        size="lg"
        disabled={!!pending || !apiKey.trim() || !!urlProblem || awaitingConfig}
      >
        <KeyRound className="size-4" aria-hidden="true" />
        {pending ? t`Connecting…` : t`Connect`}
      </Button>
    </form>
  );
}
