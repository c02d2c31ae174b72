/**
 * The finding markers (ring, diamonds, triangle, chevrons, reset, cross), each drawn once into a
 * small bitmap for the theme and pixel ratio in use; the lane layer stamps them. Stamping a
 * bitmap costs a copy where drawing the path costs a rasterisation, per marker.
 */
import type { Theme } from './theme';

/** Marker sprite size, CSS px. */
export const SPRITE = 14;

type Context2D = OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D;

export interface Sprites {
  key: string;
  ring: CanvasImageSource;
  diamond: CanvasImageSource;
  conflict: CanvasImageSource;
  triangle: CanvasImageSource;
  chevrons: CanvasImageSource;
  reset: CanvasImageSource;
  cross: CanvasImageSource;
}

type Marker = Exclude<keyof Sprites, 'key'>;

/** How each marker is drawn, centred on (m, m). */
const DRAW: Readonly<Record<Marker, (c: Context2D, m: number, th: Theme) => void>> = {
  ring: (c, m, th) => {
    c.strokeStyle = th.redelivery;
    c.lineWidth = 2;
    c.beginPath();
    c.arc(m, m, 4.5, 0, Math.PI * 2);
    c.stroke();
  },
  diamond: (c, m, th) => {
    c.fillStyle = th.republish;
    diamondPath(c, m);
    c.fill();
  },
  conflict: (c, m, th) => {
    c.strokeStyle = th.invalid;
    c.lineWidth = 2;
    diamondPath(c, m);
    c.stroke();
  },
  triangle: (c, m, th) => {
    c.fillStyle = th.late;
    c.beginPath();
    c.moveTo(m - 5, m - 6);
    c.lineTo(m + 5, m - 6);
    c.lineTo(m, m + 4);
    c.closePath();
    c.fill();
  },
  chevrons: (c, m, th) => {
    // « : two chevrons pointing back, on a backing of the lane's background so the message
    // tick under it does not cut the shape.
    c.fillStyle = th.background;
    c.fillRect(m - 6, m - 5, 12, 10);
    c.strokeStyle = th.reordered;
    c.lineWidth = 2;
    c.beginPath();
    c.moveTo(m, m - 4);
    c.lineTo(m - 4, m);
    c.lineTo(m, m + 4);
    c.moveTo(m + 5, m - 4);
    c.lineTo(m + 1, m);
    c.lineTo(m + 5, m + 4);
    c.stroke();
  },
  reset: (c, m, th) => {
    // ⟲ : an open circle with an arrowhead, on a backing so the lane's line does not cut it.
    c.fillStyle = th.background;
    c.beginPath();
    c.arc(m, m, 6, 0, Math.PI * 2);
    c.fill();
    c.strokeStyle = th.reset;
    c.lineWidth = 2;
    c.beginPath();
    c.arc(m, m, 4, -Math.PI * 0.35, Math.PI * 1.45);
    c.stroke();
    c.fillStyle = th.reset;
    c.beginPath();
    c.moveTo(m + 1.5, m - 6.5);
    c.lineTo(m + 6, m - 3.5);
    c.lineTo(m + 1, m - 1);
    c.closePath();
    c.fill();
  },
  cross: (c, m, th) => {
    c.strokeStyle = th.invalid;
    c.lineWidth = 2;
    c.beginPath();
    c.moveTo(m - 4, m - 4);
    c.lineTo(m + 4, m + 4);
    c.moveTo(m + 4, m - 4);
    c.lineTo(m - 4, m + 4);
    c.stroke();
  },
};

/** The sprites for `th` at `dpr`: `previous` when it was made for the same, else drawn anew. */
export function markerSprites(th: Theme, dpr: number, previous?: Sprites): Sprites {
  const key = [th.redelivery, th.republish, th.late, th.reordered, th.reset, th.invalid, th.background, dpr].join('|');
  if (previous?.key === key) return previous;
  const make = (marker: Marker): CanvasImageSource => {
    const px = Math.ceil(SPRITE * dpr);
    const canvas =
      typeof OffscreenCanvas === 'function' ? new OffscreenCanvas(px, px) : Object.assign(document.createElement('canvas'), { width: px, height: px });
    const c = canvas.getContext('2d') as Context2D;
    c.setTransform(dpr, 0, 0, dpr, 0, 0);
    DRAW[marker](c, SPRITE / 2, th);
    return canvas instanceof OffscreenCanvas ? canvas.transferToImageBitmap() : canvas;
  };
  const sprites = { key } as Sprites;
  for (const marker of Object.keys(DRAW) as Marker[]) sprites[marker] = make(marker);
  return sprites;
}

/** The diamond both a republish (filled) and a conflict (outlined) are drawn as, centred on (m, m). */
function diamondPath(c: Context2D, m: number): void {
  c.beginPath();
  c.moveTo(m, m - 6);
  c.lineTo(m + 5, m);
  c.lineTo(m, m + 6);
  c.lineTo(m - 5, m);
  c.closePath();
}
