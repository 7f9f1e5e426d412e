// Playhead: the FFmpeg headers Swift sees. Include lines only; shims live in CFFmpegShims.
#ifndef PLAYHEAD_CFFMPEG_H
#define PLAYHEAD_CFFMPEG_H
#include <errno.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/aes.h>
#include <libavutil/avutil.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/time.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
// libavfilter is loaded on first use: its API comes through CFFmpegShims/CFFmpegLazyFilter.h.
#endif
