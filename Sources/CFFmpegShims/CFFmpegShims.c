// Playhead: C halves of the FFmpeg shims. Callbacks that FFmpeg invokes on its own threads
// (log, interrupt) are written in C so that they never enter Swift code.
#include "CFFmpegShims.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libavutil/log.h>
#include <libavutil/time.h>
#include <libavutil/imgutils.h>
#include <libavutil/avstring.h>
#include <libavutil/opt.h>

_Static_assert(sizeof(int64_t) == 8, "AV_NOPTS_VALUE is 64-bit");

const char *CFFmpeg_error_string(int errnum, char *buffer, size_t size) {
    return av_make_error_string(buffer, size, errnum);
}

// MARK: - Log capture

static _Thread_local char lastMessage[512];
static _Thread_local char recentMessages[2048];
static atomic_int logPrintLevel = AV_LOG_QUIET;

static void playheadLogCallback(void *avcl, int level, const char *format, va_list args) {
    if (level > AV_LOG_WARNING && level > atomic_load(&logPrintLevel)) return;
    char line[1024];
    int printPrefix = 1;
    av_log_format_line2(avcl, level, format, args, line, sizeof line, &printPrefix);
    if (level <= AV_LOG_WARNING) {
        // Keep only the message text: strip the "[mov @ 0x...] " prefix and the newline.
        const char *text = line;
        if (text[0] == '[') {
            const char *close = strstr(text, "] ");
            if (close) text = close + 2;
        }
        size_t length = strlen(text);
        while (length > 0 && (text[length - 1] == '\n' || text[length - 1] == '\r')) length--;
        if (length > 0) {
            if (length >= sizeof lastMessage) length = sizeof lastMessage - 1;
            memcpy(lastMessage, text, length);
            lastMessage[length] = 0;
            size_t used = strlen(recentMessages);
            if (used + length + 2 < sizeof recentMessages) {
                memcpy(recentMessages + used, text, length);
                recentMessages[used + length] = '\n';
                recentMessages[used + length + 1] = 0;
            }
        }
    }
    if (level <= atomic_load(&logPrintLevel)) fputs(line, stderr);
}

void CFFmpeg_install_log_capture(int printLevel) {
    atomic_store(&logPrintLevel, printLevel);
    av_log_set_level(printLevel > AV_LOG_WARNING ? printLevel : AV_LOG_WARNING);
    av_log_set_callback(playheadLogCallback);
}

const char *CFFmpeg_last_log_message(void) { return lastMessage; }

const char *CFFmpeg_recent_log_messages(void) { return recentMessages; }

void CFFmpeg_clear_last_log_message(void) {
    lastMessage[0] = 0;
    recentMessages[0] = 0;
}

// MARK: - Interrupt deadline

#define CFFMPEG_COUNTED_INPUTS 32

struct CFFmpegInterrupt {
    _Atomic int64_t deadline;  // av_gettime_relative() microseconds; 0 = none
    atomic_int aborted;
    atomic_int kicked;  // one-shot interrupt, cleared by its consumer
    // Set when a kick made the I/O callback give up (so a read was cut short); written and
    // cleared on the I/O thread only (the callback runs inside its reads).
    atomic_int kickCutRead;
    // Byte counting (CFFmpeg_count_input_bytes); touched only by the thread doing the I/O.
    int (*originalOpen)(AVFormatContext *, AVIOContext **, const char *, int, AVDictionary **);
    int (*originalClose)(AVFormatContext *, AVIOContext *);
    AVIOContext *openInputs[CFFMPEG_COUNTED_INPUTS];
    int playlistURL[CFFMPEG_COUNTED_INPUTS];  // the input's URL names a .m3u8/.m3u/.mpd
    int64_t closedBytes;
    // Size limits (CFFmpeg_limit_input_sizes); 0 = none. Written before the open, then read by
    // the I/O thread only.
    AVFormatContext *topLevel;
    int64_t playlistLimit;
    int64_t segmentLimit;
    int requireTLS;  // refuse any input whose final location (after redirects) is plain http
    char refusedLocation[512];  // written before `refusal` is set
    atomic_int refusal;  // a CFFmpegInputRefusal; set once by the I/O thread, read by any thread
};

CFFmpegInterrupt *CFFmpeg_interrupt_create(void) {
    CFFmpegInterrupt *interrupt = calloc(1, sizeof *interrupt);
    return interrupt;
}

void CFFmpeg_interrupt_destroy(CFFmpegInterrupt *interrupt) { free(interrupt); }

void CFFmpeg_interrupt_set_deadline(CFFmpegInterrupt *interrupt, int64_t microseconds) {
    atomic_store(&interrupt->deadline, microseconds > 0 ? av_gettime_relative() + microseconds : 0);
}

void CFFmpeg_interrupt_abort(CFFmpegInterrupt *interrupt) { atomic_store(&interrupt->aborted, 1); }

int CFFmpeg_interrupt_aborted(const CFFmpegInterrupt *interrupt) {
    return atomic_load(&((CFFmpegInterrupt *)interrupt)->aborted);
}

void CFFmpeg_interrupt_kick(CFFmpegInterrupt *interrupt) { atomic_store(&interrupt->kicked, 1); }

int CFFmpeg_interrupt_consume_kick(CFFmpegInterrupt *interrupt) {
    int kicked = atomic_exchange(&interrupt->kicked, 0);
    int cut = atomic_exchange(&interrupt->kickCutRead, 0);
    return kicked ? (cut ? 2 : 1) : 0;
}

int CFFmpeg_interrupt_fired(const CFFmpegInterrupt *interrupt) {
    CFFmpegInterrupt *state = (CFFmpegInterrupt *)interrupt;
    if (atomic_load(&state->aborted) || atomic_load(&state->kicked)) return 1;
    if (atomic_load(&state->refusal)) return 1;
    int64_t deadline = atomic_load(&state->deadline);
    return deadline != 0 && av_gettime_relative() > deadline;
}

int CFFmpeg_interrupt_stops_read(CFFmpegInterrupt *state) {
    if (atomic_load(&state->kicked) && !atomic_load(&state->aborted)) {
        atomic_store(&state->kickCutRead, 1);
        return 1;
    }
    return CFFmpeg_interrupt_fired(state);
}

int CFFmpeg_interrupt_kick_cut_read(const CFFmpegInterrupt *interrupt) {
    CFFmpegInterrupt *state = (CFFmpegInterrupt *)interrupt;
    return atomic_load(&state->kicked) && atomic_load(&state->kickCutRead);
}

static int checkInputLimits(CFFmpegInterrupt *state);

static int playheadInterruptCallback(void *opaque) {
    if (!opaque) return 0;
    if (CFFmpeg_interrupt_stops_read(opaque)) return 1;
    return checkInputLimits(opaque);
}

void CFFmpeg_interrupt_attach(AVFormatContext *context, CFFmpegInterrupt *interrupt) {
    context->interrupt_callback.callback = playheadInterruptCallback;
    context->interrupt_callback.opaque = interrupt;
}

// MARK: - Input byte counting

/// 1 when the path of `url` (before any query or fragment) ends in .m3u8, .m3u or .mpd.
static int namesPlaylist(const char *url) {
    if (!url) return 0;
    size_t end = strcspn(url, "?#");
    static const char *const suffixes[] = {".m3u8", ".m3u", ".mpd"};
    for (size_t i = 0; i < sizeof suffixes / sizeof *suffixes; i++) {
        size_t length = strlen(suffixes[i]);
        if (end >= length && av_strncasecmp(url + end - length, suffixes[i], length) == 0) return 1;
    }
    return 0;
}

/// 1 when `input` was finally read over plain http (an https URL redirected); keeps the URL.
static int isPlainHTTP(AVIOContext *input, CFFmpegInterrupt *state) {
    uint8_t *location = NULL;
    if (av_opt_get(input, "location", AV_OPT_SEARCH_CHILDREN, &location) < 0 || !location) return 0;
    int plain = av_strncasecmp((const char *)location, "http:", 5) == 0;
    if (plain) av_strlcpy(state->refusedLocation, (const char *)location, sizeof state->refusedLocation);
    av_free(location);
    return plain;
}

static int countingOpen(AVFormatContext *s, AVIOContext **pb, const char *url, int flags,
                        AVDictionary **options) {
    CFFmpegInterrupt *state = s->interrupt_callback.opaque;
    int result = state->originalOpen(s, pb, url, flags, options);
    if (result >= 0 && *pb && state->requireTLS && isPlainHTTP(*pb, state)) {
        // The redirect's request went out, but not one byte of its body reaches a demuxer.
        state->originalClose(s, *pb);
        *pb = NULL;
        atomic_store(&state->refusal, CFFMPEG_DOWNGRADE_REFUSED);
        return AVERROR(EPERM);
    }
    if (result >= 0 && *pb) {
        for (int i = 0; i < CFFMPEG_COUNTED_INPUTS; i++) {
            if (!state->openInputs[i]) {
                state->openInputs[i] = *pb;
                state->playlistURL[i] = namesPlaylist(url);
                break;
            }
        }
    }
    return result;
}

static int countingClose(AVFormatContext *s, AVIOContext *pb) {
    CFFmpegInterrupt *state = s->interrupt_callback.opaque;
    for (int i = 0; i < CFFMPEG_COUNTED_INPUTS; i++) {
        if (pb && state->openInputs[i] == pb) {
            state->closedBytes += pb->bytes_read;
            state->openInputs[i] = NULL;
        }
    }
    return state->originalClose(s, pb);
}

void CFFmpeg_count_input_bytes(AVFormatContext *context) {
    CFFmpegInterrupt *state = context->interrupt_callback.opaque;
    if (!state || context->io_open == countingOpen) return;
    state->originalOpen = context->io_open;
    state->originalClose = context->io_close2;
    context->io_open = countingOpen;
    context->io_close2 = countingClose;
}

int64_t CFFmpeg_input_bytes_read(const CFFmpegInterrupt *interrupt) {
    int64_t total = interrupt->closedBytes;
    for (int i = 0; i < CFFMPEG_COUNTED_INPUTS; i++) {
        if (interrupt->openInputs[i]) total += interrupt->openInputs[i]->bytes_read;
    }
    return total;
}

// MARK: - Input size limits

void CFFmpeg_limit_input_sizes(CFFmpegInterrupt *interrupt, AVFormatContext *context,
                               int64_t playlistBytes, int64_t segmentBytes) {
    interrupt->topLevel = context;
    interrupt->playlistLimit = playlistBytes;
    interrupt->segmentLimit = segmentBytes;
}

static int isPlaylistDemuxer(const AVFormatContext *context) {
    const char *name = context->iformat ? context->iformat->name : NULL;
    return name && (strcmp(name, "hls") == 0 || strcmp(name, "dash") == 0);
}

/// Runs on the I/O thread each time FFmpeg polls the interrupt (before every read of every
/// input): 1, and a sticky refusal, once an open input has read more than its limit.
static int checkInputLimits(CFFmpegInterrupt *state) {
    AVFormatContext *top = state->topLevel;
    if (!top) return 0;
    for (int i = 0; i < CFFMPEG_COUNTED_INPUTS; i++) {
        AVIOContext *input = state->openInputs[i];
        if (!input) continue;
        int playlist = state->playlistURL[i];
        if (input == top->pb) {
            // The input the user named: a playlist when the demuxer reading it is one,
            // otherwise a progressive file, which may be any size.
            playlist = playlist || isPlaylistDemuxer(top);
            if (!playlist) continue;
        }
        int64_t limit = playlist ? state->playlistLimit : state->segmentLimit;
        if (limit > 0 && input->bytes_read > limit) {
            atomic_store(&state->refusal,
                         playlist ? CFFMPEG_PLAYLIST_TOO_LARGE : CFFMPEG_SEGMENT_TOO_LARGE);
            return 1;
        }
    }
    return 0;
}

int CFFmpeg_input_refusal(const CFFmpegInterrupt *interrupt) {
    return atomic_load(&((CFFmpegInterrupt *)interrupt)->refusal);
}

void CFFmpeg_refuse_https_downgrade(CFFmpegInterrupt *interrupt) { interrupt->requireTLS = 1; }

const char *CFFmpeg_refused_location(const CFFmpegInterrupt *interrupt) {
    return CFFmpeg_input_refusal(interrupt) ? interrupt->refusedLocation : "";
}

void CFFmpeg_forget_counted_inputs(CFFmpegInterrupt *interrupt) {
    for (int i = 0; i < CFFMPEG_COUNTED_INPUTS; i++) interrupt->openInputs[i] = NULL;
}

void CFFmpeg_interrupt_reset_inputs(CFFmpegInterrupt *interrupt) {
    CFFmpeg_forget_counted_inputs(interrupt);
    for (int i = 0; i < CFFMPEG_COUNTED_INPUTS; i++) interrupt->playlistURL[i] = 0;
    interrupt->closedBytes = 0;
    interrupt->topLevel = NULL;
    interrupt->requireTLS = 0;
    interrupt->refusedLocation[0] = 0;
    atomic_store(&interrupt->refusal, 0);
}

// MARK: - Stream side data

int CFFmpeg_stream_display_matrix(const AVStream *stream, int32_t matrix[9]) {
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (!data || size < 9 * sizeof(int32_t)) return 0;
    memcpy(matrix, data, 9 * sizeof(int32_t));
    return 1;
}

int CFFmpeg_stream_is_encrypted(const AVStream *stream) {
    size_t size = 0;
    return av_stream_get_side_data(stream, AV_PKT_DATA_ENCRYPTION_INIT_INFO, &size) != NULL;
}

int CFFmpeg_packet_is_encrypted(const AVPacket *packet) {
    size_t size = 0;
    return av_packet_get_side_data(packet, AV_PKT_DATA_ENCRYPTION_INFO, &size) != NULL;
}

// MARK: - Frame planes and sample conversion

int CFFmpeg_frame_copy_packed(const AVFrame *frame, uint8_t *buffer, int size) {
    return av_image_copy_to_buffer(buffer, size, (const uint8_t *const *)frame->data,
                                   frame->linesize, (enum AVPixelFormat)frame->format,
                                   frame->width, frame->height, 1);
}

int CFFmpeg_swr_convert_to_float(SwrContext *context, float *output, int capacity,
                                 const AVFrame *input) {
    uint8_t *planes[1] = {(uint8_t *)output};
    if (!input) return swr_convert(context, planes, capacity, NULL, 0);
    return swr_convert(context, planes, capacity, (const uint8_t **)input->extended_data,
                       input->nb_samples);
}
