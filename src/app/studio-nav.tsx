import { ChartColumn, GitCompareArrows, Images, UserRound } from 'lucide-react';
import { useState } from 'react';
import type { Me } from '../../contract/me';
import { Button } from '../components/button';
import { Dialog } from '../components/dialog';
import { AccountPanel } from '../features/connect/account-panel';
import { balanceOf } from '../features/connect/account-facts';
import { formatCredits } from '../lib/format';

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
}: StudioNavProps) {
  const [accountOpen, setAccountOpen] = useState(false);
  const balance = balanceOf(me);
  return (
    <>
      <Button
        variant={galleryShown ? 'primary' : 'secondary'}
        // Narrower on a phone, so the header's buttons and the balance fit 390 px.
        className="max-sm:px-2"
        aria-pressed={galleryShown}
        onClick={onGallery}
      >
        <Images className="size-4" aria-hidden="true" />
        <span className="sr-only sm:not-sr-only">Gallery</span>
      </Button>
      <Button
        variant={compareShown ? 'primary' : 'secondary'}
        className="max-sm:px-2"
        aria-pressed={compareShown}
        onClick={onCompare}
      >
        <GitCompareArrows className="size-4" aria-hidden="true" />
        {/* On a phone the icon alone, so the balance beside it fits; the name stays "Compare". */}
        <span className="sr-only sm:not-sr-only">Compare</span>
        {draftCount !== null && (
          <span className="rounded-full bg-indigo-600 px-1.5 text-xs text-white tabular-nums">
            <span className="sr-only">(</span>
            {draftCount}
            <span className="sr-only"> models added)</span>
          </span>
        )}
      </Button>
      <Button
        variant={usageShown ? 'primary' : 'secondary'}
        className="max-sm:px-2"
        aria-pressed={usageShown}
        onClick={onUsage}
      >
        <ChartColumn className="size-4" aria-hidden="true" />
        <span className="sr-only sm:not-sr-only">Usage</span>
      </Button>
      <Button
        variant="secondary"
        className="max-sm:px-2"
        onClick={() => setAccountOpen(true)}
        // The name holds the visible text (label and balance), as axe's label-content-name-mismatch asks.
        aria-label={`Account: ${me.key.label}${balance ? ` ${formatCredits(balance.amount)}` : ''}`}
      >
        {/* On a phone the balance alone: the header's buttons then fit 390 px. */}
        <UserRound className="size-4 max-sm:hidden" aria-hidden="true" />
        <span className="hidden max-w-40 truncate sm:inline">{me.key.label}</span>{' '}
        <span className="font-semibold tabular-nums" data-testid="header-balance">
          {balance ? formatCredits(balance.amount) : ''}
        </span>
      </Button>
      <Dialog open={accountOpen} onOpenChange={setAccountOpen} title="Account">
        <AccountPanel
          initial={me}
          onDisconnect={() => {
            setAccountOpen(false);
            onDisconnect();
          }}
        />
      </Dialog>
    </>
  );
}
