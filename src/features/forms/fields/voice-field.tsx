import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Play, Square } from 'lucide-react';
import { Button } from '../../../components/button';
import { Field } from '../../../components/field';
import { Select } from '../../../components/select';
import { MediaInput } from '../media/media-input';
import { looksLikeUrl } from '../param-rules';
import { allowsUnset, choicesOf, keyOf, UNSET_KEY, valueOf } from './choices';
import type { ParamFieldProps } from './field-props';
import { useMediaField } from './use-media-field';

const CUSTOM_KEY = '__custom__';

/** A catalog preview URL, resolved against the API when it is a path. */
const resolvePreview = (url: string, baseUrl: string): string | null => {
  try {
    return new URL(url, baseUrl).href;
  } catch {
    return null;
  }
};

/** Plays a voice's preview through an <audio> element; stops when pressed again or unmounted. */
function VoicePreviewButton({ url, voice }: { url: string; voice: string }) {
  const audio = useRef<HTMLAudioElement>(null);
  const { t } = useLingui();
  const [playing, setPlaying] = useState(false);
  useEffect(() => {
    const element = audio.current;
    return () => element?.pause();
  }, []);
  const toggle = () => {
    const element = audio.current;
    if (!element) return;
    if (playing) {
      element.pause();
      element.currentTime = 0;
      return;
    }
    // play() rejects when the browser refuses (autoplay policy, a missing file): back to "Play".
    void Promise.resolve(element.play()).catch(() => setPlaying(false));
  };
  return (
    <>
      <audio
        ref={audio}
        src={url}
        preload="none"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
        hidden
      />
      <Button
        onClick={toggle}
        aria-label={playing ? t`Stop preview of ${voice}` : t`Play preview of ${voice}`}
        aria-pressed={playing}
      >
        {playing ? (
          <Square className="size-3.5" aria-hidden="true" />
        ) : (
          <Play className="size-3.5" aria-hidden="true" />
        )}
        <Trans>Preview</Trans>
      </Button>
    </>
  );
}

/**
 * voice: a select of the voices (option labels as text); a voice with a previewUrl gets a play button.
 * api-notes §2 counts voice among the media-URL types, so "Custom voice" takes a service-hosted audio file.
 */
export function VoiceField(props: ParamFieldProps) {
  const { def, value, onChange, onBlur, inputRef, baseUrl, disabled } = props;
  const { t } = useLingui();
  const field = useMediaField(props);
  const { label } = field;
  const labelText = label.text;
  const customLabelId = useId();
  const customId = useId();
  const choices = useMemo(() => choicesOf(def), [def]);
  const current = keyOf(choices, value);
  const holdsUrl = typeof value === 'string' && value !== '' && current === UNSET_KEY && looksLikeUrl(value);
  const [customChosen, setCustomChosen] = useState(false);
  const custom = customChosen || holdsUrl || choices.length === 0;
  const selectedKey = custom ? CUSTOM_KEY : current;
  const selected = choices.find((c) => c.key === selectedKey);
  const preview = selected?.previewUrl ? resolvePreview(selected.previewUrl, baseUrl) : null;

  return (
    <Field {...field.frame}>
      {(control) => (
        <div className="flex flex-col gap-2">
          <div className="flex gap-2">
            <Select
              {...control}
              ref={inputRef}
              className="min-w-0 flex-1"
              value={selectedKey}
              disabled={disabled}
              onBlur={onBlur}
              onChange={(e) => {
                const key = e.target.value;
                setCustomChosen(key === CUSTOM_KEY);
                onChange(key === CUSTOM_KEY ? (holdsUrl ? value : '') : valueOf(choices, key));
              }}
            >
              {(selectedKey === UNSET_KEY || allowsUnset(def)) && (
                <option value={UNSET_KEY}>{allowsUnset(def) ? t`Not set` : t`Choose a voice…`}</option>
              )}
              {choices.map((c) => (
                <option key={c.key} value={c.key}>
                  {c.label}
                </option>
              ))}
              <option value={CUSTOM_KEY}>{t`Custom voice (audio file)…`}</option>
            </Select>
            {preview && selected && <VoicePreviewButton key={preview} url={preview} voice={selected.label} />}
          </div>
          {custom && (
            <div className="flex flex-col gap-1.5 rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200 ring-inset dark:bg-slate-900/60 dark:ring-slate-700">
              <span id={customLabelId} className="text-xs font-medium text-slate-700 dark:text-slate-300">
                <Trans>{labelText}: audio URL</Trans>
              </span>
              <MediaInput
                {...field.input({
                  id: customId,
                  'aria-describedby': control['aria-describedby'],
                  'aria-invalid': control['aria-invalid'],
                })}
                // The select above is the field's focus target; this input has a label of its own.
                inputRef={undefined}
                label={{ id: customLabelId, text: t`${labelText} audio` }}
              />
            </div>
          )}
        </div>
      )}
    </Field>
  );
}
