/* tendon/fpenv.h: the floating-point environment, read, described, entered and left. */
#include <inttypes.h>
#include <stdio.h>

#include "common/fpenv.h"
#include "common/kernels_internal.h"

uint64_t tendon_fpenv_read(void) { return tendon_fpenv_get_(); }

uint64_t tendon_fpenv_defined(void) { return TENDON_FPENV_DEFINED; }

int tendon_fpenv_is_defined(uint64_t reg) { return !tendon_fpenv_differs_(reg); }

const char *tendon_fpenv_mode(void)
{
#if defined(TENDON_FPENV_CHECK)
    return "check";
#else
    return "guard";
#endif
}

size_t tendon_fpenv_describe(uint64_t reg, char *buf, size_t buf_size)
{
    char tmp[200];
    int n;
#if defined(TENDON_FPENV_X86)
    static const char *const ROUND[4] = {"round to nearest", "round down", "round up",
                                         "round toward zero"};
    static const char *const EXC[6] = {"invalid", "denormal", "divide-by-zero", "overflow",
                                       "underflow", "inexact"};
    char traps[80] = "";
    size_t t = 0;
    for (int i = 0; i < 6; ++i)
        if (!(reg & (1u << (7 + i))))
            t += (size_t)snprintf(traps + t, sizeof traps - t, "%s%s", t ? "," : ", traps ",
                                  EXC[i]);
    n = snprintf(tmp, sizeof tmp, "MXCSR 0x%" PRIx64 " (%s, FTZ %s, DAZ %s%s)", reg,
                 ROUND[(reg >> 13) & 3], (reg & 0x8000u) ? "on" : "off",
                 (reg & 0x40u) ? "on" : "off", traps);
#elif defined(TENDON_FPENV_ARM64)
    static const char *const ROUND[4] = {"round to nearest", "round up", "round down",
                                         "round toward zero"};
    n = snprintf(tmp, sizeof tmp, "FPCR 0x%" PRIx64 " (%s, FZ %s, DN %s%s%s)", reg,
                 ROUND[(reg >> 22) & 3], (reg & (1u << 24)) ? "on" : "off",
                 (reg & (1u << 25)) ? "on" : "off", (reg & (1u << 19)) ? ", FZ16 on" : "",
                 (reg & 0x9F07u) ? ", other control bits set" : "");
#else
    n = snprintf(tmp, sizeof tmp, "no floating-point control register known on this "
                                  "architecture (0x%" PRIx64 ")", reg);
#endif
    if (n < 0)
        n = 0;
    if (buf && buf_size > 0)
        snprintf(buf, buf_size, "%s", tmp);
    return (size_t)n;
}

tendon_status tendon_fpenv_enter(tendon_fpenv *saved)
{
    if (!saved)
        return tendon_fail(TENDON_ERR_NULL, "tendon_fpenv_enter: saved is NULL");
    saved->caller = tendon_fpenv_get_();
    saved->switched = 0;
    if (tendon_fpenv_differs_(saved->caller)) {
        tendon_fpenv_set_(tendon_fpenv_defined_from_(saved->caller));
        saved->switched = 1;
    }
    return TENDON_OK;
}

tendon_status tendon_fpenv_leave(const tendon_fpenv *saved)
{
    if (!saved)
        return tendon_fail(TENDON_ERR_NULL, "tendon_fpenv_leave: saved is NULL");
#if defined(TENDON_FPENV_X86)
    /* MXCSR bits 16-31 are reserved: loading one faults (#GP), so a value tendon_fpenv_enter
       cannot have saved is refused rather than loaded. */
    if (saved->switched && (saved->caller >> 16) != 0)
        return tendon_fail(TENDON_ERR_VALUE,
                           "tendon_fpenv_leave: saved->caller is 0x%llx, not an MXCSR value "
                           "(bits 16-31 are reserved; was saved filled by tendon_fpenv_enter?); "
                           "nothing changed",
                           (unsigned long long)saved->caller);
#endif
    if (saved->switched)
        tendon_fpenv_set_(tendon_fpenv_caller_from_(saved->caller, tendon_fpenv_get_()));
    return TENDON_OK;
}
