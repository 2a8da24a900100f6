import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

const COLORS = ['#4338ca', '#047857', '#b45309', '#be123c', '#0369a1', '#7e22ce'];

/**
 * A uPlot line chart of one or more series over days. The canvas is hidden from assistive
 * technology: the figure's caption summarizes it and a table beside it carries the numbers.
 */
export function Chart(props: { days: string[]; series: { label: string; values: number[] }[]; format?: (value: number) => string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const xs = props.days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
    const format = props.format ?? ((v: number) => String(v));
    const plot = new uPlot(
      {
        width: Math.max(280, element.clientWidth),
        height: 220,
        series: [{ label: 'Day', value: (_: uPlot, v: number | null) => (v === null ? '—' : new Date(v * 1000).toISOString().slice(0, 10)) }, ...props.series.map((s, i) => ({ label: s.label, stroke: COLORS[i % COLORS.length], width: 2, value: (_: uPlot, v: number | null) => (v === null ? '—' : format(v)) }))],
        axes: [{ stroke: 'currentColor' }, { stroke: 'currentColor', values: (_: uPlot, ticks: number[]) => ticks.map(format), size: 70 }],
        scales: { x: { time: true } },
        legend: { show: true },
      },
      [xs, ...props.series.map((s) => s.values)],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, element.clientWidth), height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [props.days, props.series]);
  return <div class="chart" ref={box} aria-hidden="true" />;
}
