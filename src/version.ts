/** The amux version, reported by `--version` and `daemon status`. */
export const VERSION = '0.1.0';
