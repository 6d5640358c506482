/*
 * CPU feature detection: cpuid + xgetbv on x86-64 (the OS must save the YMM / ZMM state, not
 * just the CPU support the instructions), getauxval on AArch64 Linux, sysctlbyname on Apple
 * silicon (Advanced SIMD is architectural on AArch64 either way).
 * This file is compiled with the library's baseline flags only: nothing here may use AVX.
 *
 * Where cpuid and xgetbv come from (docs/windows.md):
 *   - Linux, gcc or clang: <cpuid.h> (__get_cpuid_max, __cpuid_count) and xgetbv in inline asm —
 *     the path every Linux build has always taken, unchanged;
 *   - Windows (MSVC, and MinGW-w64 gcc, which ships the same intrinsics): __cpuid and
 *     __cpuidex from <intrin.h>, _xgetbv from <immintrin.h>. MinGW-w64 is built and tested
 *     under wine; the _MSC_VER path is written for MSVC but cannot be compiled here.
 */
#include <stdint.h>
#include <string.h>

#include "cpu.h"

#if defined(__AVX__) || defined(__AVX2__) || defined(__AVX512F__)
#error "the dispatcher must be compiled without AVX flags: it runs before anything is checked"
#endif

#if defined(__x86_64__) || defined(_M_X64)

#if defined(_WIN32)
#include <intrin.h>
#include <immintrin.h>

/* regs = {eax, ebx, ecx, edx} of cpuid(leaf, subleaf). */
static void cpuid_regs(unsigned leaf, unsigned subleaf, unsigned regs[4])
{
    int r[4];
    __cpuidex(r, (int)leaf, (int)subleaf);
    for (int i = 0; i < 4; ++i)
        regs[i] = (unsigned)r[i];
}

/* The highest leaf of the range starting at `base` (0 or 0x80000000). */
static unsigned cpuid_max(unsigned base)
{
    int r[4];
    __cpuid(r, (int)base);
    return (unsigned)r[0];
}

#if defined(_MSC_VER) && !defined(__clang__)
static uint64_t read_xcr0(void) { return (uint64_t)_xgetbv(0); }
#else
/* gcc and clang declare _xgetbv only with -mxsave, which the baseline objects do not get: the
   attribute enables it for this one function (xgetbv is not AVX; it runs on any x86-64 CPU
   whose cpuid says OSXSAVE, which is checked before the call). */
__attribute__((target("xsave"))) static uint64_t read_xcr0(void)
{
    return (uint64_t)_xgetbv(0);
}
#endif

#else /* Linux / other ELF systems with gcc or clang */
#include <cpuid.h>

static void cpuid_regs(unsigned leaf, unsigned subleaf, unsigned regs[4])
{
    __cpuid_count(leaf, subleaf, regs[0], regs[1], regs[2], regs[3]);
}

static unsigned cpuid_max(unsigned base) { return (unsigned)__get_cpuid_max(base, NULL); }

static uint64_t read_xcr0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}
#endif

unsigned tendon_cpu_features(void)
{
    unsigned features = TENDON_CPU_SSE2; /* x86-64 baseline */
    unsigned r[4];
    if (cpuid_max(0) < 1)
        return features;
    cpuid_regs(0, 0, r); /* the vendor: ebx edx ecx spell "GenuineIntel" */
    if (r[1] == 0x756E6547u && r[3] == 0x49656E69u && r[2] == 0x6C65746Eu)
        features |= TENDON_CPU_INTEL;
    cpuid_regs(1, 0, r);
    const int sse41 = (r[2] >> 19) & 1;
    const int osxsave = (r[2] >> 27) & 1;
    const int avx = (r[2] >> 28) & 1;
    if (sse41)
        features |= TENDON_CPU_SSE41;
    if (!osxsave || !avx)
        return features;
    const uint64_t xcr0 = read_xcr0();
    const int ymm_saved = (xcr0 & 0x6) == 0x6;        /* XMM and YMM state */
    const int zmm_saved = (xcr0 & 0xE6) == 0xE6;      /* plus opmask, ZMM_Hi256, Hi16_ZMM */
    if (cpuid_max(0) < 7)
        return features;
    cpuid_regs(7, 0, r);
    const int avx2 = (r[1] >> 5) & 1;
    const int avx512f = (r[1] >> 16) & 1, avx512dq = (r[1] >> 17) & 1, avx512vl = (r[1] >> 31) & 1;
    if (ymm_saved && avx2)
        features |= TENDON_CPU_AVX2;
    if (zmm_saved && avx2 && avx512f && avx512dq && avx512vl)
        features |= TENDON_CPU_AVX512;
    return features;
}

static void copy_text(char *out, size_t size, const char *text)
{
    strncpy(out, text, size - 1);
    out[size - 1] = '\0';
}

void tendon_cpu_brand(char *out, size_t size)
{
    if (size == 0)
        return;
    copy_text(out, size, "x86-64");
    if (cpuid_max(0x80000000u) < 0x80000004u)
        return;
    unsigned regs[12];
    for (unsigned i = 0; i < 3; ++i)
        cpuid_regs(0x80000002u + i, 0, &regs[4 * i]);
    char brand[49];
    memcpy(brand, regs, 48);
    brand[48] = '\0';
    const char *start = brand;
    while (*start == ' ')
        ++start;
    if (*start == '\0')
        return;
    copy_text(out, size, start);
    for (size_t n = strlen(out); n > 0 && out[n - 1] == ' '; --n)
        out[n - 1] = '\0';
}

#elif defined(__aarch64__) && defined(__APPLE__)
/* Apple silicon (macOS): no getauxval and no /proc; the kernel answers sysctl's hw.optional.*
   keys (1 = present). Written for macOS, compiled and run nowhere here: untested (README). */
#include <sys/sysctl.h>
#include <sys/types.h>

static int sysctl_flag(const char *name)
{
    int value = 0;
    size_t size = sizeof value;
    if (sysctlbyname(name, &value, &size, NULL, 0) != 0 || size != sizeof value)
        return -1; /* no such key on this macOS version */
    return value != 0;
}

unsigned tendon_cpu_features(void)
{
    /* hw.optional.AdvSIMD (macOS 12+) or the older hw.optional.neon; both say Advanced SIMD,
       which AArch64 makes mandatory, so a missing key still means NEON. Only an explicit 0
       would turn it off. */
    int neon = sysctl_flag("hw.optional.AdvSIMD");
    if (neon < 0)
        neon = sysctl_flag("hw.optional.neon");
    return neon == 0 ? 0u : TENDON_CPU_NEON;
}

void tendon_cpu_brand(char *out, size_t size)
{
    if (size == 0)
        return;
    strncpy(out, "AArch64 (Apple)", size - 1);
    out[size - 1] = '\0';
    char brand[128];
    size_t len = sizeof brand;
    if (sysctlbyname("machdep.cpu.brand_string", brand, &len, NULL, 0) == 0 && len > 0 &&
        len <= sizeof brand) {
        brand[sizeof brand - 1] = '\0';
        if (brand[0] != '\0') {
            strncpy(out, brand, size - 1);
            out[size - 1] = '\0';
        }
    }
}

#elif defined(__aarch64__)
#include <stdio.h>
#include <sys/auxv.h>

unsigned tendon_cpu_features(void)
{
    /* Advanced SIMD (with double-precision lanes) is mandatory in AArch64; HWCAP_ASIMD confirms. */
    unsigned long hw = getauxval(AT_HWCAP);
    (void)hw;
    return TENDON_CPU_NEON;
}

void tendon_cpu_brand(char *out, size_t size)
{
    if (size == 0)
        return;
    strncpy(out, "AArch64", size - 1);
    out[size - 1] = '\0';
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[256];
    unsigned implementer = 0, part = 0;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "CPU implementer : %x", &implementer) == 1)
            continue;
        if (sscanf(line, "CPU part : %x", &part) == 1)
            break;
    }
    fclose(f);
    if (implementer || part)
        snprintf(out, size, "AArch64 (implementer 0x%02x, part 0x%03x)", implementer, part);
}

#elif defined(__wasm__)
/*
 * WebAssembly: a module either validates with SIMD128 or does not load at all, so the feature is
 * a property of the module, not something to probe. The SIMD module (TENDON_HAVE_SIMD128) is
 * instantiated by the JavaScript loader only after WebAssembly.validate accepted it
 * (docs/wasm.md); the scalar module reports nothing.
 */
unsigned tendon_cpu_features(void)
{
#ifdef TENDON_HAVE_SIMD128
    return TENDON_CPU_SIMD128;
#else
    return 0;
#endif
}

void tendon_cpu_brand(char *out, size_t size)
{
    if (size) {
        strncpy(out, "WebAssembly (wasm32)", size - 1);
        out[size - 1] = '\0';
    }
}

#else
unsigned tendon_cpu_features(void) { return 0; }
void tendon_cpu_brand(char *out, size_t size)
{
    if (size) {
        strncpy(out, "unknown architecture", size - 1);
        out[size - 1] = '\0';
    }
}
#endif
