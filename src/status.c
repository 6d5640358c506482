/* Status names and the thread-local error message. */
#include <stdarg.h>
#include <stdio.h>

#include "common/kernels_internal.h"

static _Thread_local char g_message[512];

const char *tendon_error_message(void) { return g_message; }

tendon_status tendon_fail(tendon_status status, const char *fmt, ...)
{
    va_list args;
    va_start(args, fmt);
    vsnprintf(g_message, sizeof g_message, fmt, args);
    va_end(args);
    return status;
}

tendon_status tendon_error_set(tendon_status status, const char *fmt, ...)
{
    if (!fmt)
        fmt = "";
    va_list args;
    va_start(args, fmt);
    vsnprintf(g_message, sizeof g_message, fmt, args);
    va_end(args);
    return status;
}

const char *tendon_status_name(tendon_status status)
{
    switch (status) {
    case TENDON_OK: return "TENDON_OK";
    case TENDON_ERR_NULL: return "TENDON_ERR_NULL";
    case TENDON_ERR_COUNT: return "TENDON_ERR_COUNT";
    case TENDON_ERR_RANGE: return "TENDON_ERR_RANGE";
    case TENDON_ERR_ALIAS: return "TENDON_ERR_ALIAS";
    case TENDON_ERR_ISA: return "TENDON_ERR_ISA";
    case TENDON_ERR_VALUE: return "TENDON_ERR_VALUE";
    case TENDON_ERR_OVERFLOW: return "TENDON_ERR_OVERFLOW";
    case TENDON_ERR_NOMEM: return "TENDON_ERR_NOMEM";
    case TENDON_ERR_FORMAT: return "TENDON_ERR_FORMAT";
    case TENDON_ERR_NOT_FOUND: return "TENDON_ERR_NOT_FOUND";
    case TENDON_ERR_IO: return "TENDON_ERR_IO";
    case TENDON_ERR_FPENV: return "TENDON_ERR_FPENV";
    }
    return "TENDON_ERR_UNKNOWN";
}

const char *tendon_version(void) { return TENDON_VERSION_STRING_LITERAL; }
