// The concurrency chart of `npm run bench`: throughput against concurrency, hub and Temporal floor, as an SVG file.

export interface ChartSeries {
  name: string;
  colour: string;
  /** One value per concurrency level, in the order of the levels; NaN where it was not measured. */
  values: number[];
}

const WIDTH = 720;
const HEIGHT = 420;
const MARGIN = { left: 70, right: 170, top: 50, bottom: 60 };

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A round step for the y axis giving about five gridlines. */
function niceStep(max: number): number {
  const raw = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * magnitude).find((step) => step >= raw) ?? raw;
}

/** Lines of `series` over the concurrency `levels` (equally spaced), with gridlines, values and a legend. */
export function concurrencyChart(title: string, yLabel: string, levels: number[], series: ChartSeries[]): string {
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const finite = series.flatMap((s) => s.values.filter(Number.isFinite));
  const step = niceStep(Math.max(1, ...finite) * 1.1);
  const yMax = Math.ceil((Math.max(1, ...finite) * 1.1) / step) * step;
  const x = (index: number) => MARGIN.left + (levels.length === 1 ? plotWidth / 2 : (index / (levels.length - 1)) * plotWidth);
  const y = (value: number) => MARGIN.top + plotHeight - (value / yMax) * plotHeight;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="white"/>`,
    `<text x="${WIDTH / 2}" y="24" text-anchor="middle" font-size="15">${escape(title)}</text>`,
  ];
  for (let value = 0; value <= yMax + 1e-9; value += step) {
    parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotWidth}" y1="${y(value)}" y2="${y(value)}" stroke="#ddd"/>`);
    parts.push(`<text x="${MARGIN.left - 8}" y="${y(value) + 4}" text-anchor="end">${Number(value.toPrecision(6))}</text>`);
  }
  levels.forEach((level, index) => {
    parts.push(`<text x="${x(index)}" y="${MARGIN.top + plotHeight + 20}" text-anchor="middle">${level}</text>`);
  });
  parts.push(`<text x="${MARGIN.left + plotWidth / 2}" y="${HEIGHT - 15}" text-anchor="middle">concurrency (virtual users)</text>`);
  parts.push(
    `<text transform="translate(20 ${MARGIN.top + plotHeight / 2}) rotate(-90)" text-anchor="middle">${escape(yLabel)}</text>`,
    `<line x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${MARGIN.top + plotHeight}" stroke="black"/>`,
    `<line x1="${MARGIN.left}" x2="${MARGIN.left + plotWidth}" y1="${MARGIN.top + plotHeight}" y2="${MARGIN.top + plotHeight}" stroke="black"/>`,
  );
  series.forEach((s, row) => {
    const points = s.values.map((value, index) => [x(index), y(value), value] as const).filter(([, , value]) => Number.isFinite(value));
    parts.push(`<polyline fill="none" stroke="${s.colour}" stroke-width="2" points="${points.map(([px, py]) => `${px},${py}`).join(' ')}"/>`);
    for (const [px, py, value] of points) {
      parts.push(`<circle cx="${px}" cy="${py}" r="3.5" fill="${s.colour}"/>`);
      // A label on the y axis would sit on its tick labels: it goes to the right of its point instead.
      const onAxis = px === MARGIN.left;
      parts.push(`<text x="${onAxis ? px + 6 : px}" y="${py - 8}" text-anchor="${onAxis ? 'start' : 'middle'}" fill="${s.colour}">${value.toFixed(1)}</text>`);
    }
    const legendY = MARGIN.top + 10 + row * 20;
    parts.push(
      `<line x1="${WIDTH - MARGIN.right + 15}" x2="${WIDTH - MARGIN.right + 35}" y1="${legendY}" y2="${legendY}" stroke="${s.colour}" stroke-width="2"/>`,
    );
    parts.push(`<text x="${WIDTH - MARGIN.right + 40}" y="${legendY + 4}">${escape(s.name)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
