/*
 * CPU feature detection: cpuid + xgetbv on x86-64 (the OS must save the YMM / ZMM state, not
 * just the CPU support the instructions), getauxval on AArch64 (Advanced SIMD is architectural).
 * This file is compiled with the library's baseline flags only: nothing here may use AVX.
 */
#include <stdint.h>
#include <string.h>

#include "cpu.h"

#if defined(__AVX__) || defined(__AVX2__) || defined(__AVX512F__)
#error "the dispatcher must be compiled without AVX flags: it runs before anything is checked"
#endif

#if defined(__x86_64__) || defined(_M_X64)
#include <cpuid.h>

static uint64_t read_xcr0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

unsigned tendon_cpu_features(void)
{
    unsigned features = TENDON_CPU_SSE2; /* x86-64 baseline */
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d))
        return features;
    const int sse41 = (c >> 19) & 1;
    const int osxsave = (c >> 27) & 1;
    const int avx = (c >> 28) & 1;
    if (sse41)
        features |= TENDON_CPU_SSE41;
    if (!osxsave || !avx)
        return features;
    const uint64_t xcr0 = read_xcr0();
    const int ymm_saved = (xcr0 & 0x6) == 0x6;        /* XMM and YMM state */
    const int zmm_saved = (xcr0 & 0xE6) == 0xE6;      /* plus opmask, ZMM_Hi256, Hi16_ZMM */
    const unsigned max_leaf = (unsigned)__get_cpuid_max(0, NULL);
    if (max_leaf < 7)
        return features;
    __cpuid_count(7, 0, a, b, c, d);
    const int avx2 = (b >> 5) & 1;
    const int avx512f = (b >> 16) & 1, avx512dq = (b >> 17) & 1, avx512vl = (b >> 31) & 1;
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
    if ((unsigned)__get_cpuid_max(0x80000000u, NULL) < 0x80000004u) /* int in clang, unsigned in gcc */
        return;
    unsigned regs[12];
    for (unsigned i = 0; i < 3; ++i)
        __get_cpuid(0x80000002u + i, &regs[4 * i], &regs[4 * i + 1], &regs[4 * i + 2],
                    &regs[4 * i + 3]);
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
