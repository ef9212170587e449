/** A picked photo shrunk in the browser to a square of at most 256x256 (centre-cropped), as a data: URL. */
export const PHOTO_SIDE = 256;
/** A photo's data: URL stays well inside the card's limit (types.ts MAX_CARD_CHARS), with room for the name. */
const MAX_PHOTO_CHARS = 140_000;
export const NOT_AN_IMAGE = "This file is not an image that can be read. Choose a JPEG, PNG, WebP or GIF picture.";

export async function shrinkPhoto(file: Blob): Promise<string> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new Error(NOT_AN_IMAGE);
  }
  try {
    const crop = Math.min(bitmap.width, bitmap.height);
    const side = Math.min(PHOTO_SIDE, crop);
    const canvas = document.createElement("canvas");
    canvas.width = side;
    canvas.height = side;
    const context = canvas.getContext("2d");
    if (!context || side === 0) throw new Error(NOT_AN_IMAGE);
    context.drawImage(bitmap, (bitmap.width - crop) / 2, (bitmap.height - crop) / 2, crop, crop, 0, 0, side, side);
    // WebP where the browser can make it, JPEG otherwise; less quality until it fits (a busy picture)
    let photo = "";
    for (const quality of [0.85, 0.7, 0.5, 0.3]) {
      const webp = canvas.toDataURL("image/webp", quality);
      photo = webp.startsWith("data:image/webp") ? webp : canvas.toDataURL("image/jpeg", quality);
      if (photo.length <= MAX_PHOTO_CHARS) break;
    }
    return photo;
  } finally {
    bitmap.close();
  }
}
