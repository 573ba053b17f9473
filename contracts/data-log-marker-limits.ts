/**
 * The limits of data log markers, apart from their schemas (./data-log-markers.ts) so that the
 * log page can show them without loading the schema library.
 */

/** Longest note a marker keeps: a sentence or two, as a tuner writes beside a pull. */
export const MARKER_NOTE_MAX = 500;
