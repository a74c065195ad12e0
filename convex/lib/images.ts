/** Images of designs (email blocks, CTA elements): the size the upload accepts (spec/2 §5, §9); the types are model/files.ts UPLOAD_RULES.image. */
export const IMAGE_MAX_BYTES = 5_242_880;
