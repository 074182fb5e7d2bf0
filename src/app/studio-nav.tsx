import { useLingui } from '@lingui/react/macro';
import { ChartColumn, GitCompareArrows, Images, UserRound } from 'lucide-react';
import { useState, type ComponentType, type ReactNode } from 'react';
import type { Me } from '../../contract/me';
import { Button } from '../components/button';
import { Dialog } from '../components/dialog';
import { AccountPanel } from '../features/connect/account-panel';
import { LanguageChoice } from '../components/language-choice';
import { ThemeChoice } from '../components/theme-choice';
import { balanceOf } from '../features/connect/account-facts';
import { cn } from '../lib/cn';
import { formatCredits } from '../lib/format';
import { DraftCount } from './phone-nav';

// The header's buttons once connected: the Gallery, Compare and Usage views, and the Account dialog.

export interface StudioNavProps {
  me: Me;
  galleryShown: boolean;
  compareShown: boolean;
  usageShown: boolean;
  /** Models added with "Add to comparison", waiting for the next new board. */
  draftCount: number | null;
  onGallery: () => void;
  onCompare: () => void;
  onUsage: () => void;
  onDisconnect: () => void;
  /** "Members", while the team space is on. */
  teamButton?: ReactNode;
  /** The team space's part of the Account dialog (switch "Team space", "Display name"). */
  teamSettings?: ReactNode;
}

/**
 * A header button that shows a screen, pressed while it is shown. Narrower on a phone and the icon alone there,
 * so the header's buttons and the balance fit 390 px; the accessible name stays the label.
 */
function ScreenToggle({
  shown,
  onClick,
  icon: Icon,
  label,
  children,
  className,
}: {
  className?: string;
  shown: boolean;
  onClick: () => void;
  icon: ComponentType<{ className?: string; 'aria-hidden'?: 'true' }>;
  label: string;
  children?: ReactNode;
}) {
  return (
    <Button
      variant={shown ? 'primary' : 'secondary'}
      className={cn('max-sm:px-2', className)}
      aria-pressed={shown}
      onClick={onClick}
    >
      <Icon className="size-4" aria-hidden="true" />
      <span className="sr-only sm:not-sr-only">{label}</span>
      {children}
    </Button>
  );
}

export function StudioNav({
  me,
  galleryShown,
  compareShown,
  usageShown,
  draftCount,
  onGallery,
  onCompare,
  onUsage,
  onDisconnect,
  teamButton,
  teamSettings,
}: StudioNavProps) {
  const { t } = useLingui();
  const [accountOpen, setAccountOpen] = useState(false);
  const balance = balanceOf(me);
  const keyName = me.key.label;
  const credits = balance ? formatCredits(balance.amount) : null;
  return (
    <>
      {/* On a phone these two are destinations of the bar at the bottom (phone-nav.tsx). */}
      <ScreenToggle
        shown={galleryShown}
        onClick={onGallery}
        icon={Images}
        label={t`Gallery`}
        className="max-sm:hidden"
      />
      <ScreenToggle
        shown={compareShown}
        onClick={onCompare}
        icon={GitCompareArrows}
        label={t`Compare`}
        className="max-sm:hidden"
      >
        {draftCount !== null && (
          <span className="rounded-full bg-indigo-600 px-1.5 text-xs text-white tabular-nums">
            <DraftCount count={draftCount} />
          </span>
        )}
      </ScreenToggle>
      <ScreenToggle shown={usageShown} onClick={onUsage} icon={ChartColumn} label={t`Usage`} />
      {teamButton}
      <Button
        variant="secondary"
        className="max-sm:px-2"
        onClick={() => setAccountOpen(true)}
        // The name holds the visible text (label and balance), as axe's label-content-name-mismatch asks.
        aria-label={credits !== null ? t`Account: ${keyName} ${credits}` : t`Account: ${keyName}`}
      >
        {/* On a phone the balance alone: the header's buttons then fit 390 px. */}
        <UserRound className="size-4 max-sm:hidden" aria-hidden="true" />
        <span className="hidden max-w-40 truncate sm:inline" dir="auto" translate="no">
          {me.key.label}
        </span>{' '}
        <span className="font-semibold tabular-nums" data-testid="header-balance">
          {credits ?? ''}
        </span>
      </Button>
      <Dialog open={accountOpen} onOpenChange={setAccountOpen} title={t`Account`}>
        <AccountPanel
          initial={me}
          onDisconnect={() => {
            setAccountOpen(false);
            onDisconnect();
          }}
        />
        {teamSettings && <div className="mt-4">{teamSettings}</div>}
        <div className="mt-4 flex flex-col gap-3">
          <ThemeChoice />
          <LanguageChoice />
        </div>
      </Dialog>
    </>
  );
}
