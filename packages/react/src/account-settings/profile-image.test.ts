// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { isImageUrl, maxImageUrlLength, ProfileImageError } from './profile-image.js';
import { centreSquare, imageFileToDataUrl } from './profile-image-file.js';

describe('profile images', () => {
  it('crop the centre square of a picture', () => {
    expect(centreSquare(400, 300)).toEqual({ x: 50, y: 0, side: 300 });
    expect(centreSquare(300, 401)).toEqual({ x: 0, y: 50, side: 300 });
    expect(centreSquare(64, 64)).toEqual({ x: 0, y: 0, side: 64 });
  });

  it('take http(s) addresses the service takes, and nothing else', () => {
    expect(isImageUrl('https://images.example/ada.png')).toBe(true);
    expect(isImageUrl('http://localhost:3000/a.png')).toBe(true);
    for (const bad of ['javascript:alert(1)', 'data:text/html,hi', 'ftp://x.example/a', 'ada.png', '']) {
      expect(isImageUrl(bad)).toBe(false);
    }
    expect(isImageUrl(`https://x.example/${'a'.repeat(maxImageUrlLength)}`)).toBe(false);
  });

  it('refuse a file that is not an image before decoding it', async () => {
    const error = await imageFileToDataUrl(new Blob(['hi'], { type: 'text/plain' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProfileImageError);
    expect((error as ProfileImageError).reason).toBe('unreadable');
  });
});
