// tendon-bench: registers every case of bench/cases.c × every ISA that can run here × every count
// of the case with Google Benchmark, named `<kernel>/<isa>/<count>` (e.g. pose_blend/avx512/1024),
// each reporting `count` items per iteration. This file knows no kernel; the cases are C.
//
// Own flags (removed before Google Benchmark sees the command line):
//   --tendon_emulated   also register the SIMDe-emulated variants (NEON on x86-64, the x86
//                       ISAs on AArch64). Off by default: they are slow and say nothing about speed.
// Default: --benchmark_min_time=0.05 (a short run); any --benchmark_min_time given overrides it.
// `tendon bench` (tools/) runs this with --benchmark_format=json: keep the names and the item
// counts exactly as they are.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "cases.h"

namespace {

constexpr const char *kDefaultMinTime = "--benchmark_min_time=0.05";

void RunCase(benchmark::State &state, const tendon_bench_case *c, const tendon_kernels *k,
             size_t count)
{
    tendon_bench_fixture fx{};
    fx.count = count;
    if (c->setup(&fx, tendon_bench_seed(c->kernel, count)) != 0) {
        c->teardown(&fx);
        state.SkipWithError("setup failed (out of memory?)");
        return;
    }
    for (auto _ : state) {
        c->run(&fx, k);
        benchmark::DoNotOptimize(fx.out);
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                            static_cast<int64_t>(count));
    state.SetLabel(c->item);
    c->teardown(&fx);
}

void PrintOwnUsage()
{
    std::fprintf(stderr,
                 "tendon-bench: every kernel x every usable ISA x its sizes, named "
                 "<kernel>/<isa>/<count>.\n"
                 "  --tendon_emulated   also run SIMDe-emulated variants (slow, not a speed "
                 "measure)\n"
                 "  default %s; pass --benchmark_min_time=<seconds> to run longer.\n"
                 "Google Benchmark's own flags follow.\n\n",
                 kDefaultMinTime);
}

} // namespace

int main(int argc, char **argv)
{
    // Our defaults first, then the caller's arguments (later flags win), minus our own flags.
    bool emulated = false;
    std::vector<char *> args;
    args.push_back(argv[0]);
    args.push_back(const_cast<char *>(kDefaultMinTime));
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--tendon_emulated") == 0) {
            emulated = true;
            continue;
        }
        if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0)
            PrintOwnUsage();
        args.push_back(argv[i]);
    }
    args.push_back(nullptr);
    int bargc = static_cast<int>(args.size()) - 1;

    benchmark::Initialize(&bargc, args.data());
    if (benchmark::ReportUnrecognizedArguments(bargc, args.data()))
        return 1;

    std::string skipped;
    for (size_t ci = 0; ci < tendon_bench_case_count; ++ci) {
        const tendon_bench_case *c = &tendon_bench_cases[ci];
        for (int i = 0; i < TENDON_ISA_COUNT; ++i) {
            const tendon_isa isa = static_cast<tendon_isa>(i);
            const tendon_kernels *k = tendon_kernels_for(isa);
            if (!k)
                continue; // not compiled, or this CPU cannot run it
            if (tendon_isa_compiled(isa) == TENDON_ISA_EMULATED && !emulated) {
                if (ci == 0)
                    skipped += (skipped.empty() ? "" : ",") + std::string(tendon_isa_name(isa));
                continue;
            }
            if (c->usable && !c->usable(isa, k))
                continue;
            for (const size_t *n = c->counts; *n; ++n) {
                const size_t count = *n;
                const std::string name = std::string(c->kernel) + "/" + tendon_isa_name(isa) +
                                         "/" + std::to_string(count);
                benchmark::RegisterBenchmark(name.c_str(), RunCase, c, k, count);
            }
        }
    }

    benchmark::AddCustomContext("tendon_cpu", tendon_cpu_name());
    tendon_isa active;
    if (tendon_isa_active(&active) == TENDON_OK)
        benchmark::AddCustomContext("tendon_active_isa", tendon_isa_name(active));
    if (!skipped.empty())
        benchmark::AddCustomContext("tendon_emulated_skipped",
                                    skipped + " (pass --tendon_emulated to run)");

    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
