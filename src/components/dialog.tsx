import { useLingui } from '@lingui/react/macro';
import { Dialog as D } from 'radix-ui';
import { X } from 'lucide-react';
import { useRef, type ReactNode } from 'react';
import { cn } from '../lib/cn';
import { NoticeArea } from './notice-area';

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  wide?: boolean;
  /** A sheet over the bottom of a phone's screen, in reach of a thumb, rather than a centred box. */
  sheet?: boolean;
}

/** Modal dialog (Radix): focus trapped, Escape closes, focus returns to the opener. */
export function Dialog({ open, onOpenChange, title, description, children, wide, sheet }: DialogProps) {
  // Dialogs here are opened by plain buttons, not a Radix Trigger, so Radix has no trigger to give the
  // focus back to on close (it would land on <body>): remember what had the focus when it opened.
  const opener = useRef<HTMLElement | null>(null);
  const { t } = useLingui();
  // The portal only while open: closed, Radix's Presence would still mount for the overlay and the
  // content, and each asks for a synchronous re-render as it mounts (its layout effect), which pulls the
  // passive effects of whatever mounted with it into the same task. Every closed dialog of the studio
  // did that as the studio appeared (total blocking time, docs/benchmarks.md "lighthouse"). Nothing here
  // animates out, so unmounting on close is what Presence did anyway.
  return (
    <D.Root open={open} onOpenChange={onOpenChange}>
      {open && (
        <D.Portal>
          <D.Overlay className="fixed inset-0 z-40 bg-slate-950/50 backdrop-blur-[2px]" />
          <D.Content
            className={cn(
              sheet
                ? 'fixed inset-x-0 bottom-0 z-50 flex max-h-[88dvh] flex-col rounded-t-2xl'
                : // Centred: left-1/2 pairs with the physical -translate-x-1/2; start-1/2 would move it off centre in RTL.
                  'fixed top-1/2 left-1/2 z-50 flex max-h-[90vh] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl',
              'bg-white shadow-2xl ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-700',
              !sheet && (wide ? 'max-w-4xl' : 'max-w-lg'),
            )}
            {...(description ? {} : { 'aria-describedby': undefined })}
            onOpenAutoFocus={() => {
              opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
            }}
            onCloseAutoFocus={(event) => {
              event.preventDefault();
              if (opener.current?.isConnected) opener.current.focus();
              opener.current = null;
            }}
          >
            {/* The content scrolls inside; the notices stay over the dialog's top, in view wherever it is scrolled. */}
            <div
              className={cn(
                'min-h-0 overflow-y-auto p-5',
                sheet && 'pb-[calc(1.25rem+env(safe-area-inset-bottom))]',
              )}
            >
              <div className="mb-4 flex items-start justify-between gap-4">
                <div>
                  <D.Title className="text-base font-semibold text-slate-900 dark:text-white">
                    {title}
                  </D.Title>
                  {description && (
                    <D.Description className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                      {description}
                    </D.Description>
                  )}
                </div>
                <D.Close
                  className="rounded-md p-1 text-slate-500 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-800"
                  aria-label={t`Close`}
                >
                  <X className="size-4" aria-hidden="true" />
                </D.Close>
              </div>
              {children}
            </div>
            <NoticeArea inDialog />
          </D.Content>
        </D.Portal>
      )}
    </D.Root>
  );
}
