// The charting library, which the console loads from /console/uPlot.js (consoleRoutes.ts serves uplot's own ES module
// from the hub's dependencies); its types are the package's.
export { default } from 'uplot';
