// Output pages on the wire (src/guides/api.md): `GET /v1/sessions/{ref}/logs` and one stream of `GET /v1/jobs/{id}/output`.

/** Query of `GET /v1/sessions/{ref}/logs`. */
export interface LogsQuery {
  /** Absolute byte offset to start at. */
  sinceOffset?: number;
  /** At most this many bytes; a page never splits an escape sequence, a job marker or a character (ADR 0031). */
  limit?: number;
  /** Stream until the session has ended (close-delimited body). */
  follow?: boolean;
  /** Only the bytes of this job's run on the terminal (job 1, or a `--tty` job). */
  job?: number;
  /** Only output written at or after this time: ISO-8601, epoch ms, or a duration before now (`10m`); exact to about a second. */
  since?: string;
  /** Only output written before this time (same forms); not with `follow`. */
  until?: string;
}

/** Query and answer of `GET /v1/sessions/{ref}/log-lines` (`logs -t`): the plain lines of the output, each with the time (ISO-8601) by which it was written, null when not known yet. */
export interface LogLinesQuery {
  since?: string;
  until?: string;
}
export interface LogLinesView {
  /** `open`: the last line, not ended by a newline yet. */
  lines: { at: string | null; text: string; open?: true }[];
  /** Where a follower goes on: just after the last line ended by a newline (`logs -f -t`). */
  nextOffset: number;
}

/** Response headers that place a page in the output: absolute offsets, so paging survives truncation. */
export const PAGE_HEADERS = {
  /** The offset of the first byte sent. */
  offset: 'x-amux-offset',
  /** Where the next page starts (not on a followed stream). */
  nextOffset: 'x-amux-next-offset',
  /** Older bytes were dropped by the cap. */
  truncated: 'x-amux-truncated',
  /** Bytes the stream received in all (job streams). */
  total: 'x-amux-total',
  /** More can be read from the next offset now (ADR 0052); a page can end short of its limit, or be empty, and still have more after it. */
  more: 'x-amux-more',
} as const;

/** Where a page lies, read from its headers (`nextOffset` and `total` are NaN when absent). */
export interface PageInfo {
  offset: number;
  nextOffset: number;
  truncated: boolean;
  total: number;
  more: boolean;
}

export function pageInfo(headers: Record<string, string | undefined>): PageInfo {
  return {
    offset: Number(headers[PAGE_HEADERS.offset]),
    nextOffset: Number(headers[PAGE_HEADERS.nextOffset]),
    truncated: headers[PAGE_HEADERS.truncated] === 'true',
    total: Number(headers[PAGE_HEADERS.total]),
    more: headers[PAGE_HEADERS.more] === 'true',
  };
}
