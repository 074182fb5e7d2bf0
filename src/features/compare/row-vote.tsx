import { Trans, useLingui } from '@lingui/react/macro';
import { Equal } from 'lucide-react';
import { Button } from '../../components/button';
import type { Vote } from '../../model/compare/votes';

// A prompt's vote, under the prompt in its row: on a blind board what this member voted (or whether votes are
// open yet) and the Tie button (Best sits on each cell); after Reveal, that a blind vote was cast.

export function RowVote({
  blind,
  vote,
  votedFor,
  canVote,
  promptNumber,
  onTie,
}: {
  blind: boolean;
  vote: Vote | undefined;
  /** The place (blind label) this member voted for, or null (a tie, or no vote). */
  votedFor: string | null;
  /** Blind, with two results or more in. */
  canVote: boolean;
  promptNumber: number;
  onTie: () => void;
}) {
  const { t } = useLingui();
  if (!blind)
    return vote ? (
      <span className="mt-2 block font-medium" data-testid="row-vote">
        {vote.winner === null ? t`Voted a tie (blind)` : t`Voted in blind: see the badge`}
      </span>
    ) : null;
  return (
    <span className="mt-2 flex flex-col items-start gap-1">
      <span data-testid="row-vote">
        {vote
          ? vote.winner === null
            ? t`Your vote: a tie`
            : t`Your vote: ${votedFor}`
          : canVote
            ? t`Pick the best result, or a tie.`
            : t`Votes open when two results are in.`}
      </span>
      <Button
        size="sm"
        variant="ghost"
        aria-pressed={vote?.winner === null}
        disabled={!canVote}
        aria-label={t`Tie, prompt ${promptNumber}`}
        onClick={onTie}
      >
        <Equal className="size-3.5" aria-hidden="true" />
        <Trans comment="A vote: no result of this prompt is better">Tie</Trans>
      </Button>
    </span>
  );
}
