import { plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useMemo, useState } from 'react';
import { Download } from 'lucide-react';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { Field } from '../../components/field';
import { Select } from '../../components/select';
import { Spinner } from '../../components/spinner';
import { categoryLabel } from '../../model/category-labels';
import { saveCsv } from '../../lib/save-file';
import { displayText } from '../../lib/untrusted-text';
import {
  leaderboard,
  leaderboardCsv,
  listVotes,
  votedCategories,
  type Vote,
} from '../../model/compare/votes';

// The Leaderboard (docs/leaderboard.md): every blind vote of this key on this device, per category: wins,
// losses, ties, win rate and a rating with its 95 % bootstrap interval (model/compare/rating-model.ts, the
// method in docs/leaderboard.md). With the
// team space on (docs/team-space.md): "Team" counts every member's votes (one per member per prompt), "Mine"
// this member's, both from the team's shared votes.

const th = 'px-2 py-1.5 text-xs font-medium text-slate-600 dark:text-slate-400';
const td = 'px-2 py-1.5 text-end whitespace-nowrap tabular-nums';

export function LeaderboardDialog({
  open,
  onOpenChange,
  connectionId,
  category,
  team,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  connectionId: string;
  /** The board's category: shown first when it has votes. */
  category: string;
  /** The team space's votes (every member's, and this member's), when the board is a team board. */
  team?: { team: readonly Vote[]; mine: readonly Vote[] } | null;
}) {
  const { t } = useLingui();
  // The CSV's file name: "leaderboard image-default.csv".
  const leaderboardFile = (key: string) => {
    const category = key.replace('/', '-');
    return t({
      message: `leaderboard ${category}.csv`,
      comment: 'file name of the leaderboard saved as CSV',
    });
  };
  const [own, setVotes] = useState<readonly Vote[] | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [scope, setScope] = useState<'team' | 'mine'>('team');
  const votes = team ? team[scope] : own;
  useEffect(() => {
    if (!open || team) return;
    let live = true;
    void listVotes(connectionId).then((all) => live && setVotes(all));
    return () => {
      live = false;
    };
  }, [open, connectionId, team]);

  const categories = useMemo(() => votedCategories(votes ?? []), [votes]);
  const shown =
    chosen && categories.includes(chosen) ? chosen : categories.includes(category) ? category : categories[0];
  const rows = useMemo(() => (votes && shown ? leaderboard(votes, shown) : []), [votes, shown]);
  const count = votes?.filter((v) => v.category === shown).length ?? 0;
  const categoryName = shown ? categoryLabel(shown) : '';

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={t`Leaderboard`} wide>
      {team && (
        <div role="group" aria-label={t`Whose votes`} className="mb-3 flex gap-1">
          {(
            [
              ['team', t({ message: 'Team', comment: 'Whose votes: every member’s' })],
              ['mine', t({ message: 'Mine', comment: 'Whose votes: only mine' })],
            ] as const
          ).map(([value, label]) => (
            <Button
              key={value}
              size="sm"
              variant={scope === value ? 'primary' : 'secondary'}
              aria-pressed={scope === value}
              onClick={() => setScope(value)}
            >
              {label}
            </Button>
          ))}
        </div>
      )}
      {votes === null ? (
        <Spinner label={t`Reading the votes`} />
      ) : categories.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          <Trans>
            No votes yet. Turn on Blind on a board, pick the best result of each prompt, and the models’
            ratings appear here.
          </Trans>
        </p>
      ) : (
        <div className="flex flex-col gap-3">
          <div className="flex flex-wrap items-end justify-between gap-3">
            <Field label={t`Category`} className="min-w-56">
              {(control) => (
                <Select {...control} value={shown} onChange={(e) => setChosen(e.target.value)}>
                  {categories.map((c) => (
                    <option key={c} value={c}>
                      {categoryLabel(c)}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Button onClick={() => shown && saveCsv(leaderboardCsv(shown, rows), leaderboardFile(shown))}>
              <Download className="size-4" aria-hidden="true" />
              <Trans>Export CSV</Trans>
            </Button>
          </div>
          <div
            className="overflow-x-auto rounded focus-visible:outline-2 focus-visible:outline-indigo-500"
            tabIndex={0}
          >
            <table className="w-full min-w-[36rem] text-start text-sm [:where(&_th)]:text-start">
              <caption className="sr-only">
                <Plural
                  value={count}
                  one={`Leaderboard of ${categoryName}, from # vote`}
                  other={`Leaderboard of ${categoryName}, from # votes`}
                />
              </caption>
              <thead>
                <tr>
                  <th scope="col" className={th}>
                    #
                  </th>
                  <th scope="col" className={th}>
                    <Trans>Model</Trans>
                  </th>
                  <th scope="col" className={`${th} text-end`}>
                    <Trans>Rating (95 % bootstrap interval)</Trans>
                  </th>
                  <th scope="col" className={`${th} text-end`}>
                    <Trans>Wins</Trans>
                  </th>
                  <th scope="col" className={`${th} text-end`}>
                    <Trans>Losses</Trans>
                  </th>
                  <th scope="col" className={`${th} text-end`}>
                    <Trans>Ties</Trans>
                  </th>
                  <th scope="col" className={`${th} text-end`}>
                    <Trans>Win rate</Trans>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r, i) => (
                  <tr key={r.key} className="border-t border-slate-100 dark:border-slate-800">
                    <td className="px-2 py-1.5 tabular-nums">{i + 1}</td>
                    <th scope="row" className="px-2 py-1.5 font-normal">
                      <span className="font-medium" dir="auto" translate="no">
                        {displayText(r.name)}
                      </span>{' '}
                      <span className="text-xs text-slate-600 dark:text-slate-400" dir="auto" translate="no">
                        {displayText(r.versionName)}
                      </span>
                    </th>
                    <td className={td}>
                      <span className="font-semibold">{Math.round(r.rating)}</span>{' '}
                      <span className="text-xs text-slate-600 dark:text-slate-400">
                        ({Math.round(r.low)}–{Math.round(r.high)})
                      </span>
                    </td>
                    <td className={td}>{r.wins}</td>
                    <td className={td}>{r.losses}</td>
                    <td className={td}>{r.ties}</td>
                    <td className={td}>{Math.round(r.winRate * 100)}%</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {team
              ? scope === 'team'
                ? plural(count, {
                    one: '# vote of every member of the team (one per member per prompt).',
                    other: '# votes of every member of the team (one per member per prompt).',
                  })
                : plural(count, {
                    one: '# vote of yours in the team space.',
                    other: '# votes of yours in the team space.',
                  })
              : plural(count, {
                  one: '# vote on this device for this key.',
                  other: '# votes on this device for this key.',
                })}{' '}
            <Trans>
              A vote is one prompt of a blind board: one choice among its results, or a tie, however many
              results it had. The rating fits the choices (a Bradley-Terry model extended to a choice among
              several, ties included) on the Elo scale, 1500 the average; the interval comes from refitting on
              the votes drawn again at random (a bootstrap), and narrows as votes add up.
            </Trans>
          </p>
        </div>
      )}
    </Dialog>
  );
}
