import uPlot from './uPlot.js';
import { h } from './dom.js';

/** A line of a chart: its name in the legend, and how it is drawn. */
export interface Line {
  label: string;
  /** Its colour, and a dash pattern, so that lines differ without colour too. */
  stroke: string;
  dash?: number[];
}

export interface TimeChart {
  element: HTMLElement;
  /** Draws `values` (one array per line, one value per time) against `times` (ms since the epoch). */
  update(times: number[], lines: Line[], values: Array<Array<number | null>>): void;
}

/** The palette and dashes lines take in turn where a chart has as many as its data (error codes, participants). */
const STROKES = ['#1f5fa8', '#c62828', '#2f8f46', '#d48a00', '#6a3d9a', '#00838f', '#5d4037', '#ad1457'];
const DASHES = [[], [8, 4], [2, 3], [12, 3, 2, 3], [4, 4], [1, 6], [16, 6], [6, 2, 2, 2]];

/** The `index`th of the lines a chart draws in turn. */
export function lineStyle(index: number): Pick<Line, 'stroke' | 'dash'> {
  return { stroke: STROKES[index % STROKES.length], dash: DASHES[index % DASHES.length] };
}

const HEIGHT = 220;

/**
 * A chart of values over time, drawn by uPlot. It is made once and then given new data on each refresh (setData), so
 * the page does not flicker and the operator's place on it holds; it is made again only when its lines change (an
 * error code or a participant appears or goes).
 */
export function timeChart(description: string, unit: string): TimeChart {
  const element = h('div', { class: 'chart', role: 'img', 'aria-label': description });
  let plot: uPlot | undefined;
  let shape = '';
  new ResizeObserver(() => plot?.setSize({ width: widthOf(element), height: HEIGHT })).observe(element);
  const update: TimeChart['update'] = (times, lines, values) => {
    const data = [times, ...values] as uPlot.AlignedData;
    const drawn = JSON.stringify(lines);
    if (plot && drawn === shape) return plot.setData(data);
    plot?.destroy();
    shape = drawn;
    plot = new uPlot(
      {
        width: widthOf(element),
        height: HEIGHT,
        ms: 1,
        // Room on the right for the last time's label, which is now's.
        padding: [12, 28, 0, 0],
        scales: { x: { time: true }, y: { range: (_, min, max) => [Math.min(0, min ?? 0), Math.max(1, max ?? 1)] } },
        // Points as well as lines: a minute with decisions between two without is a point, which a line alone would not draw.
        series: [{}, ...lines.map((line) => ({ label: line.label, stroke: line.stroke, dash: line.dash, width: 2, points: { show: true, size: 5 } }))],
        axes: [{}, { label: unit, size: 60 }],
      },
      data,
      element,
    );
  };
  return { element, update };
}

function widthOf(element: HTMLElement): number {
  return Math.max(320, Math.floor(element.clientWidth || 560));
}
