/** A file a request uploaded, kept in a temp file until a service adopts it into the blob store. */
export interface UploadedFile {
  field: string;
  filename: string;
  mimetype: string;
  /** Temp file; removed after the handler unless adopted into the blob store. */
  path: string;
  size: number;
  sha256: string;
}
