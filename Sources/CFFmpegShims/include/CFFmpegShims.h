// Playhead: one named C function for each FFmpeg macro or construct Swift cannot import,
// plus the two small C callbacks (log capture, interrupt deadline) that must not run Swift code.
#ifndef PLAYHEAD_CFFMPEG_SHIMS_H
#define PLAYHEAD_CFFMPEG_SHIMS_H

#include <stdint.h>
#include <stddef.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/cpu.h>
#include <libavutil/frame.h>
#include <libswresample/swresample.h>
#include "CFFmpegLazyFilter.h"

// AVERROR() is a function-like macro.
static inline int CFFmpeg_AVERROR(int posixError) { return AVERROR(posixError); }
// AVERROR_EOF and friends are built from FFERRTAG(), a function-like macro.
static inline int CFFmpeg_AVERROR_EOF(void) { return AVERROR_EOF; }
static inline int CFFmpeg_AVERROR_EXIT(void) { return AVERROR_EXIT; }
static inline int CFFmpeg_AVERROR_INVALIDDATA(void) { return AVERROR_INVALIDDATA; }
static inline int CFFmpeg_AVERROR_DECODER_NOT_FOUND(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int CFFmpeg_AVERROR_DEMUXER_NOT_FOUND(void) { return AVERROR_DEMUXER_NOT_FOUND; }
static inline int CFFmpeg_AVERROR_STREAM_NOT_FOUND(void) { return AVERROR_STREAM_NOT_FOUND; }
static inline int CFFmpeg_AVERROR_PROTOCOL_NOT_FOUND(void) { return AVERROR_PROTOCOL_NOT_FOUND; }
static inline int CFFmpeg_AVERROR_PATCHWELCOME(void) { return AVERROR_PATCHWELCOME; }
static inline int CFFmpeg_AVERROR_HTTP_NOT_FOUND(void) { return AVERROR_HTTP_NOT_FOUND; }
/// The HTTP status an AVERROR_HTTP_* code stands for (400, 401, 403, 404, 499 for other 4xx,
/// 599 for 5xx); 0 for any other code.
static inline int CFFmpeg_http_status_of_error(int code) {
    switch (code) {
    case AVERROR_HTTP_BAD_REQUEST: return 400;
    case AVERROR_HTTP_UNAUTHORIZED: return 401;
    case AVERROR_HTTP_FORBIDDEN: return 403;
    case AVERROR_HTTP_NOT_FOUND: return 404;
    case AVERROR_HTTP_OTHER_4XX: return 499;
    case AVERROR_HTTP_SERVER_ERROR: return 599;
    default: return 0;
    }
}
// AV_NOPTS_VALUE is a cast macro.
static inline int64_t CFFmpeg_AV_NOPTS_VALUE(void) { return AV_NOPTS_VALUE; }
// AV_TIME_BASE_Q is a compound literal.
static inline AVRational CFFmpeg_AV_TIME_BASE_Q(void) { return AV_TIME_BASE_Q; }

/// Writes FFmpeg's message for `errnum` into `buffer` (av_err2str uses a compound literal).
const char *CFFmpeg_error_string(int errnum, char *buffer, size_t size);

// MARK: - Log capture

/// Routes FFmpeg's log through Playhead: lines at or below `printLevel` go to stderr (use
/// AV_LOG_QUIET, -8, for none); the last error or warning on each thread is remembered.
void CFFmpeg_install_log_capture(int printLevel);
/// The last error or warning FFmpeg logged on the calling thread ("" when none).
const char *CFFmpeg_last_log_message(void);
/// Every error or warning logged on the calling thread since the last clear, one per line
/// (capped at about 2 KB).
const char *CFFmpeg_recent_log_messages(void);
/// Forgets the calling thread's logged messages.
void CFFmpeg_clear_last_log_message(void);

// MARK: - Interrupt deadline

/// A deadline and abort flag consulted by FFmpeg's blocking I/O through AVIOInterruptCB.
/// Opaque to Swift: the fields are C11 atomics.
typedef struct CFFmpegInterrupt CFFmpegInterrupt;
CFFmpegInterrupt *CFFmpeg_interrupt_create(void);
void CFFmpeg_interrupt_destroy(CFFmpegInterrupt *interrupt);
/// Blocking calls give up `microseconds` from now (0 or less: no deadline).
void CFFmpeg_interrupt_set_deadline(CFFmpegInterrupt *interrupt, int64_t microseconds);
/// Makes every blocking call give up now; thread-safe.
void CFFmpeg_interrupt_abort(CFFmpegInterrupt *interrupt);
/// Makes blocking calls give up now, once: until CFFmpeg_interrupt_consume_kick clears it.
void CFFmpeg_interrupt_kick(CFFmpegInterrupt *interrupt);
/// Clears a pending kick: 0 when there was none, 1 when it cut no read short, 2 when the I/O
/// callback gave up because of it (a read was interrupted). Call on the I/O thread.
int CFFmpeg_interrupt_consume_kick(CFFmpegInterrupt *interrupt);
/// 1 when the deadline passed, abort was requested or a kick is pending.
int CFFmpeg_interrupt_fired(const CFFmpegInterrupt *interrupt);
/// What a custom I/O read callback asks before it waits: 1 when it must give up (as
/// CFFmpeg_interrupt_fired), noting a pending kick as a read cut short. On the I/O thread.
int CFFmpeg_interrupt_stops_read(CFFmpegInterrupt *interrupt);
/// 1 while a pending kick has cut a read short (not cleared). On the I/O thread.
int CFFmpeg_interrupt_kick_cut_read(const CFFmpegInterrupt *interrupt);
/// 1 when the abort flag (not the deadline) stopped I/O.
int CFFmpeg_interrupt_aborted(const CFFmpegInterrupt *interrupt);
/// Fills a format context's interrupt_callback so its I/O consults `interrupt`.
void CFFmpeg_interrupt_attach(AVFormatContext *context, CFFmpegInterrupt *interrupt);

// MARK: - Input byte counting

/// Wraps `context`'s io_open/io_close2 (which nested HLS and DASH opens go through) so the
/// interrupt attached to it counts the bytes read by every input. Call after
/// CFFmpeg_interrupt_attach and before avformat_open_input. The counters are touched only by
/// the thread doing the context's I/O.
void CFFmpeg_count_input_bytes(AVFormatContext *context);
/// Bytes read so far by the inputs opened through a counting context (open ones included).
/// Only while the context is open, on its I/O thread.
int64_t CFFmpeg_input_bytes_read(const CFFmpegInterrupt *interrupt);
// MARK: - Input size limits

/// Why a counting context refused an input (CFFmpeg_input_refusal).
enum CFFmpegInputRefusal {
    CFFMPEG_NOT_REFUSED = 0,
    CFFMPEG_PLAYLIST_TOO_LARGE = 1,
    CFFMPEG_SEGMENT_TOO_LARGE = 2,
    CFFMPEG_DOWNGRADE_REFUSED = 3,
};
/// Bounds the bytes one input of a counting `context` may read (0: no bound): `playlistBytes`
/// for playlists (an input whose URL ends in .m3u8/.m3u/.mpd, or the top-level input once an
/// hls or dash demuxer reads it), `segmentBytes` for every other nested input (segments, keys,
/// init sections). The top-level input of any other demuxer is not bounded. Checked each time
/// FFmpeg polls the interrupt, i.e. before every read, so an input stops at most one buffer past
/// its limit; from then on every blocking call fails (AVERROR_EXIT) and
/// CFFmpeg_input_refusal says which limit. Call after CFFmpeg_count_input_bytes, before the open.
void CFFmpeg_limit_input_sizes(CFFmpegInterrupt *interrupt, AVFormatContext *context,
                               int64_t playlistBytes, int64_t segmentBytes);
/// Makes a counting context refuse every input (top-level or nested) whose location after
/// redirects is plain http: its open fails with AVERROR(EPERM) right after the response
/// headers, before a demuxer reads a byte of it, and every later blocking call fails.
/// Call after CFFmpeg_count_input_bytes, before the open.
void CFFmpeg_refuse_https_downgrade(CFFmpegInterrupt *interrupt);
/// The CFFmpegInputRefusal that stopped the input (CFFMPEG_NOT_REFUSED while none did). Any thread.
int CFFmpeg_input_refusal(const CFFmpegInterrupt *interrupt);
/// The plain-http location of a refused downgrade ("" otherwise).
const char *CFFmpeg_refused_location(const CFFmpegInterrupt *interrupt);

/// Stops looking at inputs still open (before the context closes them itself).
void CFFmpeg_forget_counted_inputs(CFFmpegInterrupt *interrupt);
/// Forgets everything one open left behind (the inputs it counted, their bytes, its format
/// context, its downgrade rule and any refusal), so another input may be opened with the same
/// interrupt after it failed. Call on the opening thread, with no context using the interrupt.
void CFFmpeg_interrupt_reset_inputs(CFFmpegInterrupt *interrupt);

// MARK: - Stream side data

/// Copies the stream's display matrix (nine 16.16/2.30 fixed-point values) into `matrix`.
/// Returns 1 when the stream has one, 0 otherwise.
int CFFmpeg_stream_display_matrix(const AVStream *stream, int32_t matrix[9]);
/// 1 when the stream carries encryption (CENC) initialisation data.
int CFFmpeg_stream_is_encrypted(const AVStream *stream);
/// 1 when the packet's sample is still encrypted (it carries encryption info: no key was given).
int CFFmpeg_packet_is_encrypted(const AVPacket *packet);

// MARK: - Frame planes and sample conversion

// libavutil/cpu.h is not among the headers the CFFmpeg module map exposes.
/// The number of CPUs this process may use (av_cpu_count respects the affinity mask).
static inline int CFFmpeg_cpu_count(void) { return av_cpu_count(); }

// AVFrame's data[] and linesize[] are fixed-size C arrays, which Swift imports as tuples;
// these functions index them so Swift never re-types the array length.
/// The start of plane `plane` (NULL when out of range or absent).
static inline const uint8_t *CFFmpeg_frame_plane(const AVFrame *frame, int plane) {
    return (plane >= 0 && plane < AV_NUM_DATA_POINTERS) ? frame->data[plane] : NULL;
}
/// The stride of plane `plane` in bytes (0 when out of range).
static inline int CFFmpeg_frame_linesize(const AVFrame *frame, int plane) {
    return (plane >= 0 && plane < AV_NUM_DATA_POINTERS) ? frame->linesize[plane] : 0;
}
/// Copies a video frame's pixels into `buffer` packed with alignment 1 (the layout of
/// `ffmpeg -f rawvideo`); av_image_copy_to_buffer wants the arrays as const pointers.
/// Returns the bytes written or a negative AVERROR.
int CFFmpeg_frame_copy_packed(const AVFrame *frame, uint8_t *buffer, int size);
/// Converts `input` (any layout, format and rate; NULL flushes) into interleaved floats at
/// `output`, which has room for `capacity` sample frames. swr_convert wants the frame's
/// plane array as `const uint8_t **`. Returns sample frames written or a negative AVERROR.
int CFFmpeg_swr_convert_to_float(SwrContext *context, float *output, int capacity,
                                 const AVFrame *input);

#endif
