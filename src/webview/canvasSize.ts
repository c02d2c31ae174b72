/**
 * The timeline canvas's size in CSS px, measured from its wrapper. Measuring lays the page out,
 * so the size is kept between measures (a resize observer says when it changes) and a redraw
 * lays the timeline out in it without measuring.
 */
export class CanvasSize {
  w = 0;
  h = 0;

  constructor(
    private readonly wrap: HTMLElement,
    private readonly canvas: HTMLCanvasElement,
  ) {}

  get measured(): boolean {
    return this.w > 0;
  }

  /** Measures the wrapper; the canvas's style follows when the size changed. */
  measure(): void {
    const r = this.wrap.getBoundingClientRect();
    const w = Math.max(1, Math.floor(r.width));
    const h = Math.max(1, Math.floor(r.height));
    if (w === this.w && h === this.h) return;
    this.w = w;
    this.h = h;
    this.canvas.style.width = `${w}px`;
    this.canvas.style.height = `${h}px`;
  }
}
