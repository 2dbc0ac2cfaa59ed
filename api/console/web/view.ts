/** A page of the console: what it shows, and how it brings its figures up to date (every few seconds while shown). */
export interface View {
  element: HTMLElement;
  refresh(): Promise<void>;
}
