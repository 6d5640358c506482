/*
 * tendon info: the CPU, and per ISA whether it is compiled (natively), emulated or absent,
 * whether dispatch may use it here, and which one is active.
 */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include <tendon/tendon.h>

#include "cli.h"
#include "json.h"

const char USAGE_INFO[] =
    "usage: tendon info [--json]\n"
    "\n"
    "Print the CPU, the library version, the floating-point environment the command runs in\n"
    "(the control register, and the library's TENDON_FPENV mode), and one line per ISA:\n"
    "  NAME compiled|emulated|absent usable|unusable [active]\n"
    "compiled: built for this architecture; emulated: built through SIMDe for the other one\n"
    "(tests, replay and digest run it, dispatch never picks it); usable: dispatch may pick it on\n"
    "this CPU. When TENDON_ISA names an ISA that cannot run here, everything is still printed,\n"
    "with the error, and the exit status is 1.\n"
    "\n"
    "  --json   the same as one JSON object: {version, cpu, fp_environment, fpenv_mode, active,\n"
    "           error?, isas: [{name, build, usable, active}]}\n";

static const char *build_name(tendon_isa_build b)
{
    switch (b) {
    case TENDON_ISA_NATIVE: return "compiled";
    case TENDON_ISA_EMULATED: return "emulated";
    default: return "absent";
    }
}

int cmd_info(int argc, char **argv)
{
    int as_json = 0;
    for (int i = 1; i < argc; ++i) {
        if (cli_is_help(argv[i])) {
            fputs(USAGE_INFO, stdout);
            return CLI_OK;
        }
        if (strcmp(argv[i], "--json") == 0)
            as_json = 1;
        else
            return cli_usage_error("info", USAGE_INFO, "unknown argument \"%s\"", argv[i]);
    }

    tendon_isa active = TENDON_ISA_SCALAR;
    const tendon_status status = tendon_isa_active(&active);
    const char *error = status == TENDON_OK ? NULL : tendon_error_message();

    if (as_json) {
        json_t *isas = json_array();
        for (int i = 0; i < TENDON_ISA_COUNT; ++i) {
            const tendon_isa isa = (tendon_isa)i;
            json_array_append_new(
                isas, json_pack("{s:s, s:s, s:b, s:b}", "name", tendon_isa_name(isa), "build",
                                build_name(tendon_isa_compiled(isa)), "usable",
                                tendon_isa_supported(isa), "active", !error && isa == active));
        }
        json_t *doc = json_pack("{s:s, s:s, s:o}", "version", tendon_version(), "cpu",
                                tendon_cpu_name(), "active",
                                error ? json_null() : json_string(tendon_isa_name(active)));
        char fpenv[200];
        cli_fpenv_describe(fpenv, sizeof fpenv);
        json_object_set_new(doc, "fp_environment", json_string(fpenv));
        json_object_set_new(doc, "fpenv_mode", json_string(tendon_fpenv_mode()));
        if (error)
            json_object_set_new(doc, "error", jx_string(error));
        json_object_set_new(doc, "isas", isas);
        jx_write(stdout, doc);
        fputc('\n', stdout);
        json_decref(doc);
    } else {
        printf("version %s\n", tendon_version());
        printf("cpu     %s\n", tendon_cpu_name());
        cli_fpenv_line(stdout, "");
        for (int i = 0; i < TENDON_ISA_COUNT; ++i) {
            const tendon_isa isa = (tendon_isa)i;
            const char *usable = tendon_isa_supported(isa) ? "usable" : "unusable";
            if (!error && isa == active)
                printf("%-7s %-8s %-8s active\n", tendon_isa_name(isa),
                       build_name(tendon_isa_compiled(isa)), usable);
            else
                printf("%-7s %-8s %s\n", tendon_isa_name(isa),
                       build_name(tendon_isa_compiled(isa)), usable);
        }
        if (error)
            printf("error   %s\n", error);
    }
    return error ? CLI_FAIL : CLI_OK;
}
