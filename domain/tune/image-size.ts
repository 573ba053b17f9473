/**
 * An image's size as people say it: firmware images are whole kibibytes or mebibytes, so a
 * mismatch reads "512 KiB" against "1 MiB"; a size that is neither (a cut or padded read) is
 * given in bytes, which is what tells the two apart.
 */
const KIB = 1024;
const MIB = 1024 * KIB;

export function imageSizeText(bytes: number): string {
  if (bytes >= MIB && bytes % MIB === 0) return `${bytes / MIB} MiB`;
  if (bytes >= KIB && bytes % KIB === 0) return `${bytes / KIB} KiB`;
  return `${bytes.toLocaleString("en")} bytes`;
}
