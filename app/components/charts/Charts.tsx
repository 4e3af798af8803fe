// Server-rendered SVG charts: they show without JavaScript, scale with their
// container (viewBox), carry an accessible name and summary, and come with a data table.
import { useId, type ReactNode } from "react";
import { axis, labelStep, niceMax, ticks } from "./scale";

export const CHART_COLORS = {
  primary: "#0a8fd6",
  secondary: "#8a55b3",
  green: "#2f9e64",
  amber: "#d98a00",
  red: "#d93025",
  gray: "#8d8d8d",
} as const;

export interface TableColumn<T> {
  header: string;
  cell: (row: T) => ReactNode;
  numeric?: boolean;
}

/** The accessible alternative: the same data as a table, folded under the chart. */
export function ChartTable<T>({ caption, rows, columns }: { caption: string; rows: T[]; columns: TableColumn<T>[] }) {
  return (
    <details className="chart-data">
      <summary>Ver los datos en una tabla</summary>
      <div className="table-scroll">
        <table className="chart-table">
          <caption className="visually-hidden">{caption}</caption>
          <thead>
            <tr>
              {columns.map((c) => (
                <th key={c.header} scope="col" className={c.numeric ? "num" : undefined}>
                  {c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={i}>
                {columns.map((c, j) =>
                  j === 0 ? (
                    <th key={c.header} scope="row">
                      {c.cell(row)}
                    </th>
                  ) : (
                    <td key={c.header} className={c.numeric ? "num" : undefined}>
                      {c.cell(row)}
                    </td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

/** A chart with its heading, its SVG (role img, <title>, <desc>) and its data table. */
export function ChartFigure({
  title,
  summary,
  children,
  table,
  testId,
}: {
  title: string;
  /** One sentence with the gist, read by screen readers as the chart's description. */
  summary: string;
  children: (ids: { titleId: string; descId: string; title: string; summary: string }) => ReactNode;
  table?: ReactNode;
  testId?: string;
}) {
  const id = useId();
  const titleId = `${id}-t`;
  const descId = `${id}-d`;
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption className="chart-caption">{title}</figcaption>
      <div className="chart-body">{children({ titleId, descId, title, summary })}</div>
      {table}
    </figure>
  );
}

function SvgHead({ title, summary, titleId, descId }: { title: string; summary: string; titleId: string; descId: string }) {
  return (
    <>
      <title id={titleId}>{title}</title>
      <desc id={descId}>{summary}</desc>
    </>
  );
}

const W = 520;
const H = 240;
const PAD = { top: 14, right: 14, bottom: 30, left: 70 };

export interface CategoryPoint {
  label: string;
  /** Longer label for tooltips and the table (defaults to label). */
  fullLabel?: string;
  value: number;
}

/** Vertical bars over categories (days, hours). */
export function BarChart({
  title,
  summary,
  data,
  format,
  axisFormat = format,
  color = CHART_COLORS.primary,
  maxLabels = 12,
  integer = false,
  titleId,
  descId,
}: {
  title: string;
  summary: string;
  data: CategoryPoint[];
  format: (v: number) => string;
  axisFormat?: (v: number) => string;
  color?: string;
  maxLabels?: number;
  /** Whole quantities (counts): whole-number gridlines. */
  integer?: boolean;
  titleId: string;
  descId: string;
}) {
  const max = Math.max(0, ...data.map((d) => d.value));
  const { top, ticks: gridlines } = axis(max, integer);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, data.length);
  const barW = Math.max(1, slot * 0.7);
  const step = labelStep(data.length, maxLabels);
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${titleId} ${descId}`} className="chart-svg" preserveAspectRatio="xMidYMid meet">
      <SvgHead title={title} summary={summary} titleId={titleId} descId={descId} />
      {gridlines.map((t) => (
        <g key={t} className="chart-grid">
          <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} />
          <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end">
            {axisFormat(t)}
          </text>
        </g>
      ))}
      {data.map((d, i) => {
        const x = PAD.left + i * slot + (slot - barW) / 2;
        const h = Math.max(0, y(0) - y(d.value));
        return (
          <g key={i}>
            <rect x={x} y={y(0) - h} width={barW} height={h} fill={color} rx={Math.min(3, barW / 4)}>
              <title>{`${d.fullLabel ?? d.label}: ${format(d.value)}`}</title>
            </rect>
            {i % step === 0 ? (
              <text x={x + barW / 2} y={H - PAD.bottom + 18} textAnchor="middle" className="chart-label">
                {d.label}
              </text>
            ) : null}
          </g>
        );
      })}
      <line x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} className="chart-axis" />
    </svg>
  );
}

/** A line over categories (days), with dots when there are few points. */
export function LineChart({
  title,
  summary,
  data,
  format,
  axisFormat = format,
  color = CHART_COLORS.secondary,
  maxLabels = 12,
  integer = false,
  titleId,
  descId,
}: {
  title: string;
  summary: string;
  data: CategoryPoint[];
  format: (v: number) => string;
  axisFormat?: (v: number) => string;
  color?: string;
  maxLabels?: number;
  /** Whole quantities (counts): whole-number gridlines. */
  integer?: boolean;
  titleId: string;
  descId: string;
}) {
  const max = Math.max(0, ...data.map((d) => d.value));
  const { top, ticks: gridlines } = axis(max, integer);
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const x = (i: number) => PAD.left + (data.length <= 1 ? plotW / 2 : (i / (data.length - 1)) * plotW);
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const step = labelStep(data.length, maxLabels);
  const path = data.map((d, i) => `${i === 0 ? "M" : "L"}${x(i).toFixed(1)},${y(d.value).toFixed(1)}`).join(" ");
  const area = data.length ? `${path} L${x(data.length - 1).toFixed(1)},${y(0)} L${x(0).toFixed(1)},${y(0)} Z` : "";
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${titleId} ${descId}`} className="chart-svg">
      <SvgHead title={title} summary={summary} titleId={titleId} descId={descId} />
      {gridlines.map((t) => (
        <g key={t} className="chart-grid">
          <line x1={PAD.left} x2={W - PAD.right} y1={y(t)} y2={y(t)} />
          <text x={PAD.left - 6} y={y(t) + 4} textAnchor="end">
            {axisFormat(t)}
          </text>
        </g>
      ))}
      {area ? <path d={area} fill={color} opacity={0.12} /> : null}
      {path ? <path d={path} fill="none" stroke={color} strokeWidth={2.5} strokeLinejoin="round" strokeLinecap="round" /> : null}
      {data.map((d, i) => (
        <g key={i}>
          <circle cx={x(i)} cy={y(d.value)} r={data.length <= 40 ? 3.5 : 0} fill={color}>
            <title>{`${d.fullLabel ?? d.label}: ${format(d.value)}`}</title>
          </circle>
          {i % step === 0 ? (
            <text x={x(i)} y={H - PAD.bottom + 18} textAnchor="middle" className="chart-label">
              {d.label}
            </text>
          ) : null}
        </g>
      ))}
      <line x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} className="chart-axis" />
    </svg>
  );
}

export interface DonutSlice {
  label: string;
  value: number;
  color: string;
}

/** A donut with its legend (the legend carries the numbers, so color is never the only cue). */
export function DonutChart({
  title,
  summary,
  data,
  centerLabel,
  centerValue,
  titleId,
  descId,
}: {
  title: string;
  summary: string;
  data: DonutSlice[];
  centerLabel: string;
  centerValue: string;
  titleId: string;
  descId: string;
}) {
  const total = data.reduce((a, d) => a + d.value, 0);
  const r = 70;
  const c = 2 * Math.PI * r;
  let offset = 0;
  return (
    <div className="donut">
      <svg viewBox="0 0 200 200" role="img" aria-labelledby={`${titleId} ${descId}`} className="donut-svg">
        <SvgHead title={title} summary={summary} titleId={titleId} descId={descId} />
        <circle cx={100} cy={100} r={r} fill="none" stroke="#eeeeee" strokeWidth={28} />
        {total > 0
          ? data
              .filter((d) => d.value > 0)
              .map((d) => {
                const len = (d.value / total) * c;
                const el = (
                  <circle
                    key={d.label}
                    cx={100}
                    cy={100}
                    r={r}
                    fill="none"
                    stroke={d.color}
                    strokeWidth={28}
                    strokeDasharray={`${len} ${c - len}`}
                    strokeDashoffset={-offset}
                    transform="rotate(-90 100 100)"
                  >
                    <title>{`${d.label}: ${d.value}`}</title>
                  </circle>
                );
                offset += len;
                return el;
              })
          : null}
        <text x={100} y={98} textAnchor="middle" className="donut-value">
          {centerValue}
        </text>
        <text x={100} y={120} textAnchor="middle" className="donut-label">
          {centerLabel}
        </text>
      </svg>
      <ul className="chart-legend">
        {data.map((d) => (
          <li key={d.label}>
            <span className="legend-swatch" style={{ background: d.color }} aria-hidden="true" />
            <span>{d.label}</span>
            <strong>{d.value}</strong>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Horizontal bars with their labels (top stations). */
export function HBarChart({
  title,
  summary,
  data,
  format,
  color = CHART_COLORS.green,
  titleId,
  descId,
}: {
  title: string;
  summary: string;
  data: CategoryPoint[];
  format: (v: number) => string;
  color?: string;
  titleId: string;
  descId: string;
}) {
  const rowH = 34;
  const labelW = 170;
  const valueW = 120;
  const height = Math.max(1, data.length) * rowH + 8;
  const max = Math.max(0, ...data.map((d) => d.value)) || 1;
  const barMax = W - labelW - valueW;
  return (
    <svg viewBox={`0 0 ${W} ${height}`} role="img" aria-labelledby={`${titleId} ${descId}`} className="chart-svg">
      <SvgHead title={title} summary={summary} titleId={titleId} descId={descId} />
      {data.map((d, i) => {
        const w = Math.max(d.value > 0 ? 2 : 0, (d.value / max) * barMax);
        const yy = 4 + i * rowH;
        return (
          <g key={i}>
            <text x={labelW - 8} y={yy + rowH / 2 + 4} textAnchor="end" className="chart-label">
              {d.label.length > 20 ? `${d.label.slice(0, 19)}…` : d.label}
            </text>
            <rect x={labelW} y={yy + 6} width={w} height={rowH - 12} rx={3} fill={color}>
              <title>{`${d.fullLabel ?? d.label}: ${format(d.value)}`}</title>
            </rect>
            <text x={labelW + w + 6} y={yy + rowH / 2 + 4} className="chart-label">
              {format(d.value)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

export interface TimePoint {
  at: string;
  value: number | null;
}

export interface TimeSeries {
  name: string;
  color: string;
  points: TimePoint[];
  format: (v: number) => string;
  /** Step line (meter readings between samples) or straight segments. */
  dashed?: boolean;
}

/**
 * Two series over time, each on its own axis (left: the first, right: the second): the power
 * and energy curve of a charging session.
 */
export function TimeChart({
  title,
  summary,
  series,
  timeFormat,
  titleId,
  descId,
}: {
  title: string;
  summary: string;
  series: [TimeSeries] | [TimeSeries, TimeSeries];
  timeFormat: (iso: string) => string;
  titleId: string;
  descId: string;
}) {
  const pad = { ...PAD, left: 44, right: series.length > 1 ? 44 : 14 };
  const plotW = W - pad.left - pad.right;
  const plotH = H - pad.top - pad.bottom;
  const times = series.flatMap((s) => s.points.map((p) => Date.parse(p.at)));
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const span = Math.max(1, t1 - t0);
  const x = (at: string) => pad.left + ((Date.parse(at) - t0) / span) * plotW;
  const scales = series.map((s) => niceMax(Math.max(0, ...s.points.map((p) => p.value ?? 0))));
  const y = (v: number, i: number) => pad.top + plotH - (v / scales[i]) * plotH;
  const xTicks = times.length ? Array.from({ length: 5 }, (_, i) => new Date(t0 + (span * i) / 4).toISOString()) : [];
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby={`${titleId} ${descId}`} className="chart-svg">
      <SvgHead title={title} summary={summary} titleId={titleId} descId={descId} />
      {ticks(scales[0]).map((t, i) => (
        <g key={`l${i}`} className="chart-grid">
          <line x1={pad.left} x2={W - pad.right} y1={y(t, 0)} y2={y(t, 0)} />
          <text x={pad.left - 6} y={y(t, 0) + 4} textAnchor="end" fill={series[0].color}>
            {series[0].format(t)}
          </text>
          {series[1] ? (
            <text x={W - pad.right + 6} y={y((scales[1] * i) / 4, 1) + 4} textAnchor="start" fill={series[1].color}>
              {series[1].format((scales[1] * i) / 4)}
            </text>
          ) : null}
        </g>
      ))}
      {series.map((s, i) => {
        const pts = s.points.filter((p) => p.value != null);
        const d = pts.map((p, j) => `${j === 0 ? "M" : "L"}${x(p.at).toFixed(1)},${y(p.value as number, i).toFixed(1)}`).join(" ");
        return d ? (
          <path key={s.name} d={d} fill="none" stroke={s.color} strokeWidth={2.5} strokeDasharray={s.dashed ? "6 4" : undefined} strokeLinejoin="round">
            <title>{s.name}</title>
          </path>
        ) : null;
      })}
      {xTicks.map((at, i) => (
        <text key={i} x={x(at)} y={H - pad.bottom + 18} textAnchor={i === 0 ? "start" : i === 4 ? "end" : "middle"} className="chart-label">
          {timeFormat(at)}
        </text>
      ))}
      <line x1={pad.left} x2={W - pad.right} y1={pad.top + plotH} y2={pad.top + plotH} className="chart-axis" />
    </svg>
  );
}

/** A legend row for charts whose series are told apart by color. */
export function SeriesLegend({ items }: { items: { name: string; color: string; dashed?: boolean }[] }) {
  return (
    <ul className="chart-legend chart-legend-inline">
      {items.map((s) => (
        <li key={s.name}>
          <span className={`legend-swatch${s.dashed ? " legend-dashed" : ""}`} style={{ background: s.color }} aria-hidden="true" />
          <span>{s.name}</span>
        </li>
      ))}
    </ul>
  );
}
