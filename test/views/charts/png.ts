/**
 * A minimal PNG decoder for tests: enough to look at what a chat user would
 * see (size, colours, where things are painted) without an image library.
 * Supports 8-bit greyscale, grey+alpha, RGB and RGBA, non-interlaced.
 */
import { inflateSync } from 'node:zlib';

export interface DecodedPng {
  readonly width: number;
  readonly height: number;
  /** RGBA, 4 bytes per pixel, row-major. */
  readonly rgba: Uint8Array;
}

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

export function decodePng(bytes: Uint8Array): DecodedPng {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  SIGNATURE.forEach((b, i) => {
    if (buf[i] !== b) throw new Error('not a PNG: bad signature');
  });
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  let sawEnd = false;
  for (let at = 8; at < buf.length && !sawEnd; ) {
    const len = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const depth = data[8]!;
      const colourType = data[9]!;
      const interlace = data[12]!;
      channels = CHANNELS[colourType] ?? 0;
      if (depth !== 8 || channels === 0 || interlace !== 0) {
        throw new Error(`unsupported PNG: depth ${depth}, colour type ${colourType}, interlace ${interlace}`);
      }
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') sawEnd = true;
    at += 12 + len;
  }
  if (width === 0 || !sawEnd) throw new Error('not a PNG: missing IHDR or IEND');

  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  if (raw.length !== height * (stride + 1)) throw new Error('PNG data has the wrong length');
  const out = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = y * stride;
    const prev = row - stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[row + x - channels]! : 0;
      const b = y > 0 ? out[prev + x]! : 0;
      const c = x >= channels && y > 0 ? out[prev + x - channels]! : 0;
      let pred: number;
      switch (filter) {
        case 0:
          pred = 0;
          break;
        case 1:
          pred = a;
          break;
        case 2:
          pred = b;
          break;
        case 3:
          pred = (a + b) >> 1;
          break;
        case 4: {
          const p = a + b - c;
          const pa = Math.abs(p - a);
          const pb = Math.abs(p - b);
          const pc = Math.abs(p - c);
          pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default:
          throw new Error(`bad PNG filter ${filter}`);
      }
      out[row + x] = (line[x]! + pred) & 0xff;
    }
  }

  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const s = i * channels;
    const grey = channels <= 2;
    rgba[i * 4] = out[s]!;
    rgba[i * 4 + 1] = grey ? out[s]! : out[s + 1]!;
    rgba[i * 4 + 2] = grey ? out[s]! : out[s + 2]!;
    rgba[i * 4 + 3] = channels === 4 ? out[s + 3]! : channels === 2 ? out[s + 1]! : 255;
  }
  return { width, height, rgba };
}

export function pixel(img: DecodedPng, x: number, y: number): [number, number, number, number] {
  const i = (Math.floor(y) * img.width + Math.floor(x)) * 4;
  return [img.rgba[i]!, img.rgba[i + 1]!, img.rgba[i + 2]!, img.rgba[i + 3]!];
}

export interface PngStats {
  readonly distinctColours: number;
  /** Share of pixels that differ from the most common colour (the background). */
  readonly inkShare: number;
}

export function pngStats(img: DecodedPng): PngStats {
  const counts = new Map<number, number>();
  for (let i = 0; i < img.rgba.length; i += 4) {
    const key = ((img.rgba[i]! << 24) | (img.rgba[i + 1]! << 16) | (img.rgba[i + 2]! << 8) | img.rgba[i + 3]!) >>> 0;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const background = Math.max(...counts.values());
  const total = img.width * img.height;
  return { distinctColours: counts.size, inkShare: (total - background) / total };
}

/** Pixels whose colour is within `tolerance` per channel of the given hex colour. */
export function countColour(img: DecodedPng, hex: string, tolerance = 12): number {
  const r = parseInt(hex.slice(1, 3), 16);
  const g = parseInt(hex.slice(3, 5), 16);
  const b = parseInt(hex.slice(5, 7), 16);
  let n = 0;
  for (let i = 0; i < img.rgba.length; i += 4) {
    if (
      Math.abs(img.rgba[i]! - r) <= tolerance &&
      Math.abs(img.rgba[i + 1]! - g) <= tolerance &&
      Math.abs(img.rgba[i + 2]! - b) <= tolerance
    )
      n++;
  }
  return n;
}

/** Asserts-free check used by several tests: a real picture, not an empty canvas. */
export function looksDrawn(img: DecodedPng): boolean {
  const s = pngStats(img);
  return s.distinctColours >= 50 && s.inkShare >= 0.02;
}
