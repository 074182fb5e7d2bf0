import { useEffect, useId, useRef, useState } from 'react';
import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { formatCount, formatCredits, formatDate } from '../../lib/format';
import { useLocale } from '../../lib/use-locale';
import { niceTicks, type DayUsage } from '../../model/usage/usage';

// Credits per day as a bar chart (product-notes §3, usage: a real chart, with axes, labels and ticks, and a
// table alternative). Hand-written SVG: a charting library would outweigh the whole view. The SVG is one
// image with a summary as its name; the same numbers are in a table below it, for screen readers and
// for anyone who wants the figures.

const HEIGHT = 220;
// SVG coordinates: the value axis stays on the left and days run left to right in every direction,
// as charts' axes are not mirrored.
const M = { top: 12, right: 12, bottom: 40, left: 52 };

const dayLabel = (start: number, long = false) =>
  formatDate(
    start,
    long ? { weekday: 'short', month: 'short', day: 'numeric' } : { month: 'short', day: 'numeric' },
  );

export function CreditsChart({ days, title }: { days: readonly DayUsage[]; title: string }) {
  useLocale();
  const { t } = useLingui();
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(640);
  const tableId = useId();
  const [showTable, setShowTable] = useState(false);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(280, Math.floor(el.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const max = Math.max(0, ...days.map((d) => d.credits));
  const ticks = niceTicks(max);
  const top = ticks[ticks.length - 1]!;
  const plotW = width - M.left - M.right;
  const plotH = HEIGHT - M.top - M.bottom;
  const slot = plotW / Math.max(1, days.length);
  const barW = Math.max(1, Math.min(40, slot * 0.7));
  const y = (v: number) => M.top + plotH - (v / top) * plotH;
  // At most about one label per 56 px, always the last day (today).
  const every = Math.max(1, Math.ceil(56 / slot));
  const labelled = (i: number) => (days.length - 1 - i) % every === 0;
  const total = days.reduce((a, d) => a + d.credits, 0);
  const busiest = days.reduce<DayUsage | null>((m, d) => (d.credits > (m?.credits ?? 0) ? d : m), null);
  const count = days.length;
  const from = dayLabel(days[0]?.start ?? 0);
  const to = dayLabel(days[days.length - 1]?.start ?? 0);
  const all = formatCredits(total);
  const most = busiest ? dayLabel(busiest.start, true) : '';
  const mostCredits = busiest ? formatCredits(busiest.credits) : '';
  const summary = busiest
    ? t`${title}: bar chart of ${plural(count, { one: '# day', other: '# days' })} from ${from} to ${to}, ${all} in all, most on ${most} (${mostCredits}). The table below has every day.`
    : t`${title}: bar chart of ${plural(count, { one: '# day', other: '# days' })} from ${from} to ${to}, ${all} in all. The table below has every day.`;

  return (
    <figure className="flex flex-col gap-2">
      <figcaption className="text-sm font-semibold">{title}</figcaption>
      <div ref={box} className="w-full">
        <svg
          role="img"
          aria-label={summary}
          width={width}
          height={HEIGHT}
          viewBox={`0 0 ${width} ${HEIGHT}`}
          className="block max-w-full text-[11px]"
        >
          {ticks.map((t) => (
            <g key={t}>
              <line
                x1={M.left}
                x2={width - M.right}
                y1={y(t)}
                y2={y(t)}
                className={
                  t === 0
                    ? 'stroke-slate-500 dark:stroke-slate-400'
                    : 'stroke-slate-200 dark:stroke-slate-700'
                }
                strokeDasharray={t === 0 ? undefined : '3 3'}
              />
              <text
                x={M.left - 6}
                y={y(t)}
                textAnchor="end"
                dominantBaseline="middle"
                className="fill-slate-600 tabular-nums dark:fill-slate-400"
              >
                {formatCount(t)}
              </text>
            </g>
          ))}
          <text
            transform={`translate(12 ${M.top + plotH / 2}) rotate(-90)`}
            textAnchor="middle"
            className="fill-slate-600 dark:fill-slate-400"
          >
            <Trans>Credits</Trans>
          </text>
          <line
            x1={M.left}
            x2={M.left}
            y1={M.top}
            y2={M.top + plotH}
            className="stroke-slate-500 dark:stroke-slate-400"
          />
          {days.map((d, i) => {
            const x = M.left + i * slot + (slot - barW) / 2;
            const today = i === days.length - 1;
            return (
              <g key={d.day}>
                {d.credits > 0 && (
                  <rect
                    x={x}
                    y={y(d.credits)}
                    width={barW}
                    height={Math.max(1, y(0) - y(d.credits))}
                    rx={Math.min(3, barW / 3)}
                    className={today ? 'fill-amber-500' : 'fill-indigo-500 dark:fill-indigo-400'}
                    data-day={d.day}
                  />
                )}
                {labelled(i) && (
                  <>
                    <line
                      x1={x + barW / 2}
                      x2={x + barW / 2}
                      y1={M.top + plotH}
                      y2={M.top + plotH + 4}
                      className="stroke-slate-500 dark:stroke-slate-400"
                    />
                    <text
                      x={x + barW / 2}
                      y={M.top + plotH + 16}
                      textAnchor="middle"
                      className="fill-slate-600 dark:fill-slate-400"
                    >
                      {today ? t`Today` : dayLabel(d.start)}
                    </text>
                  </>
                )}
              </g>
            );
          })}
          <text
            x={M.left + plotW / 2}
            y={HEIGHT - 4}
            textAnchor="middle"
            className="fill-slate-600 dark:fill-slate-400"
          >
            <Trans>Day</Trans>
          </text>
        </svg>
      </div>
      {/* Always in the page for screen readers; shown on demand to everyone else. */}
      <div>
        <button
          type="button"
          aria-expanded={showTable}
          aria-controls={tableId}
          onClick={() => setShowTable((v) => !v)}
          className="rounded text-sm text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-indigo-300"
        >
          {showTable ? t`Hide the table` : t`Show as a table`}
        </button>
      </div>
      <div
        className={
          showTable
            ? 'max-h-72 overflow-y-auto rounded focus-visible:outline-2 focus-visible:outline-indigo-500'
            : 'sr-only'
        }
        tabIndex={showTable ? 0 : undefined}
      >
        <table id={tableId} className="w-full text-start text-sm tabular-nums [:where(&_th)]:text-start">
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr className="text-xs text-slate-600 dark:text-slate-400">
              <th scope="col" className="py-1 font-medium">
                <Trans>Day</Trans>
              </th>
              <th scope="col" className="py-1 text-end font-medium">
                <Trans>Tasks</Trans>
              </th>
              <th scope="col" className="py-1 text-end font-medium">
                <Trans>Credits</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {[...days].reverse().map((d) => (
              <tr key={d.day} className="border-t border-slate-100 dark:border-slate-800">
                <th scope="row" className="py-1 font-normal">
                  {dayLabel(d.start, true)}
                </th>
                <td className="py-1 text-end">{formatCount(d.tasks)}</td>
                <td className="py-1 text-end">{formatCredits(d.credits)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
