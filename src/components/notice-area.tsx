import { useLingui } from '@lingui/react/macro';
import { useEffect, useId } from 'react';
import { Toaster } from 'sonner';
import { useTheme } from '../lib/theme';
import { openNoticeArea } from './notices';

/**
 * Where the notices of notices.ts are drawn: one for the studio, one inside each open dialog (`inDialog`:
 * a modal dialog traps the focus, so a notice of something done there is drawn there). Sonner makes it a
 * labelled live region (Alt+T moves the focus to it), pauses a notice while it has the pointer or the
 * focus, stops its motion under prefers-reduced-motion, and follows the theme chosen.
 */
export function NoticeArea({ inDialog = false }: { inDialog?: boolean }) {
  const { t } = useLingui();
  const theme = useTheme();
  const reactId = useId();
  const id = inDialog ? `dialog${reactId}` : undefined;
  useEffect(() => (id ? openNoticeArea(id) : undefined), [id]);
  return (
    <Toaster
      {...(id ? { id } : {})}
      theme={theme}
      // In a dialog, over its title: the rows and buttons below stay free to use.
      position={inDialog ? 'top-center' : 'bottom-right'}
      closeButton
      containerAriaLabel={t`Notices`}
      toastOptions={{ closeButtonAriaLabel: t`Dismiss` }}
    />
  );
}
