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
    // Byte counting (CFFmpeg_count_input_bytes); touched only by the thread doing the I/O.
    int (*originalOpen)(AVFormatContext *, AVIOContext **, const char *, int, AVDictionary **);
    int (*originalClose)(AVFormatContext *, AVIOContext *);
    AVIOContext *openInputs[CFFMPEG_COUNTED_INPUTS];
    int64_t closedBytes;
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
    return atomic_exchange(&interrupt->kicked, 0);
}

int CFFmpeg_interrupt_fired(const CFFmpegInterrupt *interrupt) {
    CFFmpegInterrupt *state = (CFFmpegInterrupt *)interrupt;
    if (atomic_load(&state->aborted) || atomic_load(&state->kicked)) return 1;
    int64_t deadline = atomic_load(&state->deadline);
    return deadline != 0 && av_gettime_relative() > deadline;
}

static int playheadInterruptCallback(void *opaque) {
    return opaque ? CFFmpeg_interrupt_fired(opaque) : 0;
}

void CFFmpeg_interrupt_attach(AVFormatContext *context, CFFmpegInterrupt *interrupt) {
    context->interrupt_callback.callback = playheadInterruptCallback;
    context->interrupt_callback.opaque = interrupt;
}

// MARK: - Input byte counting

static int countingOpen(AVFormatContext *s, AVIOContext **pb, const char *url, int flags,
                        AVDictionary **options) {
    CFFmpegInterrupt *state = s->interrupt_callback.opaque;
    int result = state->originalOpen(s, pb, url, flags, options);
    if (result >= 0 && *pb) {
        for (int i = 0; i < CFFMPEG_COUNTED_INPUTS; i++) {
            if (!state->openInputs[i]) { state->openInputs[i] = *pb; break; }
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

void CFFmpeg_forget_counted_inputs(CFFmpegInterrupt *interrupt) {
    for (int i = 0; i < CFFMPEG_COUNTED_INPUTS; i++) interrupt->openInputs[i] = NULL;
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
