/**
 * Which of the files picked together is the log and which is the file it needs beside it
 * (Emerald's `.lg2` channel list with its `.lg1`). The server reads both by content and says
 * what is missing; the names only decide which form field each file is sent in.
 */
export type LogUploadFiles<F extends { name: string }> = { file: F; companion?: F } | { error: string };

const COMPANION = /\.lg2$/i;

export function pairLogUploadFiles<F extends { name: string }>(files: readonly F[]): LogUploadFiles<F> {
  if (files.length === 1) return { file: files[0] };
  const companions = files.filter((f) => COMPANION.test(f.name));
  const logs = files.filter((f) => !COMPANION.test(f.name));
  if (files.length === 2 && companions.length === 1 && logs.length === 1) {
    return { file: logs[0], companion: companions[0] };
  }
  return {
    error: `Pick one log at a time (${files.length} files were picked); an Emerald log goes with its .lg2 channel list, the two picked together.`,
  };
}
