/** Images of designs (email blocks, CTA elements): the types and size the upload accepts (spec/2 §5, §9). */
export const IMAGE_MAX_BYTES = 5_242_880;
/** PNG, JPEG, GIF, WebP; SVG is refused (it can carry script and most email clients do not show it). */
export const IMAGE_TYPES = /^image\/(png|jpeg|gif|webp)$/;
