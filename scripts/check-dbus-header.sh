#!/usr/bin/env bash
# Playhead: checks Sources/CDBus/CDBus.h (our declarations of the libdbus calls the MPRIS
# server makes) against the installed <dbus/dbus.h>: the compiler sees every prototype twice
# and rejects any that differ; the struct sizes and constants are asserted.
# Usage: scripts/check-dbus-header.sh [repo-root]. Needs libdbus-1-dev and pkg-config.
set -euo pipefail

ROOT="${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
CC="${CC:-cc}"
probe="$(mktemp --suffix=.c)"
trap 'rm -f "$probe"' EXIT
cat >"$probe" <<'C'
#include <dbus/dbus.h>
#include <stddef.h>
#define PLAYHEAD_CHECK_AGAINST_SYSTEM_DBUS 1
#include "CDBus.h"
struct PlayheadIter { void *a, *b; dbus_uint32_t c; int d[9]; void *e, *f; };
struct PlayheadError { const char *n, *m; unsigned int b1 : 1, b2 : 1, b3 : 1, b4 : 1, b5 : 1; void *p; };
_Static_assert(sizeof(DBusMessageIter) == sizeof(struct PlayheadIter), "DBusMessageIter size");
_Static_assert(sizeof(DBusError) == sizeof(struct PlayheadError), "DBusError size");
_Static_assert(offsetof(DBusError, message) == offsetof(struct PlayheadError, m), "DBusError.message");
_Static_assert(DBUS_BUS_SESSION == 0 && DBUS_NAME_FLAG_DO_NOT_QUEUE == 0x4, "bus constants");
_Static_assert(DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER == 1 && DBUS_MESSAGE_TYPE_METHOD_CALL == 1, "reply constants");
_Static_assert(sizeof(dbus_bool_t) == 4 && sizeof(dbus_int64_t) == 8, "basic types");
C
# shellcheck disable=SC2046
"$CC" -std=c11 -Wall -Werror -fsyntax-only $(pkg-config --cflags dbus-1) -I"$ROOT/Sources/CDBus" "$probe"
echo "check-dbus-header: Sources/CDBus/CDBus.h agrees with the installed <dbus/dbus.h>"
