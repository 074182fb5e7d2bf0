import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { Mic, Square } from 'lucide-react';
import { Button } from '../../../components/button';
import { formatClock } from '../../../lib/format';

type Recording =
  | { phase: 'idle' }
  | { phase: 'asking' }
  | { phase: 'recording'; startedAt: number }
  | { phase: 'denied'; message: string };

const canRecord = (): boolean =>
  typeof window !== 'undefined' &&
  typeof window.MediaRecorder === 'function' &&
  typeof navigator.mediaDevices?.getUserMedia === 'function';

/** The container MediaRecorder writes: api-notes §4 takes audio/webm, so WebM (Opus) is asked for. */
const recorderType = (): string | undefined =>
  ['audio/webm;codecs=opus', 'audio/webm'].find((t) => MediaRecorder.isTypeSupported(t));

/**
 * "Record" a voice sample from the microphone (MediaRecorder), handed over as an audio/webm File to
 * the field's upload. Shown only where the browser can record; permission refusals say so plainly.
 */
export function RecorderButton({
  describedBy,
  onRecorded,
  disabled,
}: {
  /** The field's label id (the button's name stays "Record"). */
  describedBy?: string;
  onRecorded: (file: File) => void;
  disabled?: boolean;
}) {
  const { t } = useLingui();
  const [state, setState] = useState<Recording>({ phase: 'idle' });
  const [now, setNow] = useState(0);
  const recorder = useRef<MediaRecorder | null>(null);
  const onRecordedRef = useRef(onRecorded);
  useEffect(() => {
    onRecordedRef.current = onRecorded;
  });

  useEffect(() => {
    if (state.phase !== 'recording') return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [state.phase]);
  // Unmounting stops the microphone; what was recorded is dropped.
  useEffect(
    () => () => {
      const r = recorder.current;
      if (r && r.state !== 'inactive') {
        r.ondataavailable = null;
        r.onstop = null;
        r.stop();
        r.stream.getTracks().forEach((t) => t.stop());
      }
    },
    [],
  );

  if (!canRecord()) return null;

  const start = async () => {
    setState({ phase: 'asking' });
    let stream: MediaStream;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch {
      setState({
        phase: 'denied',
        message: t`The microphone is not available: allow it in the browser, or upload a recording instead.`,
      });
      return;
    }
    const mimeType = recorderType();
    const r = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    const chunks: Blob[] = [];
    r.ondataavailable = (e) => {
      if (e.data.size > 0) chunks.push(e.data);
    };
    r.onstop = () => {
      stream.getTracks().forEach((t) => t.stop());
      recorder.current = null;
      setState({ phase: 'idle' });
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
      if (chunks.length > 0)
        onRecordedRef.current(new File(chunks, `recording-${stamp}.webm`, { type: 'audio/webm' }));
    };
    recorder.current = r;
    r.start(250);
    const startedAt = Date.now();
    setNow(startedAt);
    setState({ phase: 'recording', startedAt });
  };

  const stop = () => recorder.current?.stop();

  const seconds = state.phase === 'recording' ? Math.max(0, Math.floor((now - state.startedAt) / 1000)) : 0;
  return (
    <>
      {state.phase === 'recording' ? (
        <Button size="sm" variant="danger" onClick={stop} aria-describedby={describedBy}>
          <Square className="size-3.5" aria-hidden="true" />
          <Trans>Stop recording</Trans>
          <span className="tabular-nums">{formatClock(seconds)}</span>
        </Button>
      ) : (
        <Button
          size="sm"
          onClick={() => void start()}
          disabled={disabled || state.phase === 'asking'}
          aria-describedby={describedBy}
          title={t`Record from the microphone`}
        >
          <Mic className="size-3.5" aria-hidden="true" />
          <Trans>Record</Trans>
        </Button>
      )}
      {state.phase === 'denied' && (
        <p role="alert" className="w-full text-xs text-rose-700 dark:text-rose-400">
          {state.message}
        </p>
      )}
    </>
  );
}
