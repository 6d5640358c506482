/*
 * The floating-point environment in the `tendon` command: the line info, digest, replay and
 * demo print (which environment they ran in), and the modes `digest --fpenv MODE` sets on the
 * tool's thread (docs/determinism.md, "The floating-point environment").
 */
#define _POSIX_C_SOURCE 200809L
#include <fenv.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <tendon/tendon.h>

#include "cli.h"

uint64_t cli_fpenv_control(void)
{
    uint64_t reg = tendon_fpenv_read();
#if defined(__x86_64__)
    /* MXCSR bits 0-5 are the sticky exception flags: set by whatever the process computed
       before (an inexact result sets bit 5), so they vary from run to run and say nothing about
       the environment a computation runs in (tendon/fpenv.h). AArch64 keeps them in FPSR, not
       in FPCR, which is what tendon_fpenv_read returns there. */
    reg &= ~(uint64_t)0x3f;
#endif
    return reg;
}

void cli_fpenv_describe(char *buf, size_t size)
{
    tendon_fpenv_describe(cli_fpenv_control(), buf, size);
}

void cli_fpenv_line(FILE *f, const char *prefix)
{
    char d[200];
    cli_fpenv_describe(d, sizeof d);
    fprintf(f, "%sfp environment: %s; library mode %s\n", prefix, d, tendon_fpenv_mode());
}

const char CLI_FPENV_MODES[] = "default, ftz, daz, ftz+daz, down, up, zero";

static void set_flush(int ftz, int daz)
{
#if defined(__x86_64__)
    uint32_t csr;
    __asm__ volatile("stmxcsr %0" : "=m"(csr));
    csr = (csr & ~(0x8000u | 0x40u)) | (ftz ? 0x8000u : 0) | (daz ? 0x40u : 0);
    __asm__ volatile("ldmxcsr %0" ::"m"(csr));
#elif defined(__aarch64__)
    /* AArch64 has one flush bit, FZ (inputs and outputs); DAZ alone maps to it too */
    uint64_t fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
    fpcr = (fpcr & ~(1ull << 24)) | ((ftz || daz) ? (1ull << 24) : 0);
    __asm__ volatile("msr fpcr, %0" ::"r"(fpcr));
#else
    (void)ftz;
    (void)daz;
#endif
}

int cli_fpenv_set(const char *mode)
{
    int ftz = 0, daz = 0, round = FE_TONEAREST;
    if (strcmp(mode, "default") == 0) {
    } else if (strcmp(mode, "ftz") == 0) {
        ftz = 1;
    } else if (strcmp(mode, "daz") == 0) {
        daz = 1;
    } else if (strcmp(mode, "ftz+daz") == 0) {
        ftz = daz = 1;
    } else if (strcmp(mode, "down") == 0) {
        round = FE_DOWNWARD;
    } else if (strcmp(mode, "up") == 0) {
        round = FE_UPWARD;
    } else if (strcmp(mode, "zero") == 0) {
        round = FE_TOWARDZERO;
    } else {
        return -1;
    }
    if (fesetround(round) != 0)
        return -1;
    set_flush(ftz, daz);
    return 0;
}
