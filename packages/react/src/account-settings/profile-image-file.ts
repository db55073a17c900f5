/**
 * Turning a picture the user chose into a profile image the service takes:
 * the centre square, scaled down to at most 256 px, encoded as a WebP (JPEG
 * where the browser cannot write WebP) data URL no longer than the service
 * allows. Large photos shrink until they fit; anything that is not a
 * readable image is refused with `ProfileImageError`. The Profile section
 * loads it when a file is first chosen.
 */
import { ProfileImageError } from './profile-image.js';

/** The service's limit on a profile image data URL (`imageUrl` in the server's `common/schemas.ts`). */
const maxImageDataUrlLength = 65_536;

/** Sizes tried in turn, largest first, until the encoded image fits. */
const sides = [256, 192, 128, 96];
const qualities = [0.88, 0.75, 0.6];

/** The largest centred square of a `width`×`height` picture. */
export function centreSquare(width: number, height: number): { x: number; y: number; side: number } {
  const side = Math.min(width, height);
  return { x: Math.floor((width - side) / 2), y: Math.floor((height - side) / 2), side };
}

/**
 * `file` as a square data URL of at most `limit` characters. Throws
 * `ProfileImageError` when it is not an image the browser can decode, or
 * when even the smallest size does not fit.
 */
export async function imageFileToDataUrl(file: Blob, limit = maxImageDataUrlLength): Promise<string> {
  if (!file.type.startsWith('image/')) throw new ProfileImageError('unreadable');
  const image = await decode(file);
  try {
    const { x, y, side } = centreSquare(image.width, image.height);
    if (side < 1) throw new ProfileImageError('unreadable');
    const canvas = document.createElement('canvas');
    const context = canvas.getContext('2d');
    if (!context) throw new ProfileImageError('unreadable');
    const type = writesWebp(canvas) ? 'image/webp' : 'image/jpeg';
    for (const wanted of sides) {
      const size = Math.min(wanted, side);
      canvas.width = size;
      canvas.height = size;
      if (type === 'image/jpeg') {
        // JPEG has no transparency: put transparent pixels on white rather than black.
        context.fillStyle = '#fff';
        context.fillRect(0, 0, size, size);
      } else {
        context.clearRect(0, 0, size, size);
      }
      context.drawImage(image.source, x, y, side, side, 0, 0, size, size);
      for (const quality of qualities) {
        const url = canvas.toDataURL(type, quality);
        if (url.length <= limit) return url;
      }
    }
    throw new ProfileImageError('too-large');
  } finally {
    image.close();
  }
}

interface DecodedImage {
  source: CanvasImageSource;
  width: number;
  height: number;
  close(): void;
}

async function decode(file: Blob): Promise<DecodedImage> {
  if (typeof createImageBitmap === 'function') {
    try {
      const bitmap = await createImageBitmap(file);
      return { source: bitmap, width: bitmap.width, height: bitmap.height, close: () => bitmap.close() };
    } catch {
      throw new ProfileImageError('unreadable');
    }
  }
  const url = URL.createObjectURL(file);
  const image = new Image();
  try {
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new ProfileImageError('unreadable'));
      image.src = url;
    });
  } catch (error) {
    URL.revokeObjectURL(url);
    throw error;
  }
  return {
    source: image,
    width: image.naturalWidth,
    height: image.naturalHeight,
    close: () => URL.revokeObjectURL(url),
  };
}

/** Whether this browser encodes WebP (others quietly give PNG for an unknown type). */
function writesWebp(canvas: HTMLCanvasElement): boolean {
  return canvas.toDataURL('image/webp', 0.8).startsWith('data:image/webp');
}
