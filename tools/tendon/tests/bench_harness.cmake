# `tendon bench` with a stand-in harness: how it finds tendon-bench (next to itself, then
# $TENDON_BENCH, then PATH), what it passes on, and how it fails. cmake -P with
#   EXE     the tendon executable (copied into WORK, so no real harness sits next to it)
#   EMU     what runs it in a cross build (CMAKE_CROSSCOMPILING_EMULATOR, "|"-separated)
#   SAMPLE  a Google Benchmark JSON file the stand-in writes where it is told to
#   WORK    a scratch directory (emptied first)
cmake_minimum_required(VERSION 3.25)

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/bin" "${WORK}/env" "${WORK}/path")
file(COPY "${EXE}" DESTINATION "${WORK}/bin")
get_filename_component(exe_name "${EXE}" NAME)
set(tendon "${WORK}/bin/${exe_name}")
string(REPLACE "|" ";" emu "${EMU}")
if(emu) # the tests below change PATH: find the emulator first
  list(POP_FRONT emu emu_program)
  find_program(emu_path "${emu_program}" REQUIRED)
  list(PREPEND emu "${emu_path}")
endif()

# The stand-in: prints its arguments (tendon sends them to stderr), exits $FAKE_EXIT if set;
# for --benchmark_filter=nomatch, or with $FAKE_EMPTY set, does what Google Benchmark 1.7.1 does
# when it runs nothing (leaves the --benchmark_out file empty and exits 0); else copies SAMPLE to
# the --benchmark_out file.
file(WRITE "${WORK}/tendon-bench.in"
"#!/bin/sh
PATH=/usr/bin:/bin
out=
nomatch=
for a in \"$@\"; do
  case \"$a\" in
    --benchmark_out=*) out=\${a#--benchmark_out=} ;;
    --benchmark_filter=nomatch) nomatch=1 ;;
  esac
done
echo \"stand-in harness args: $*\"
if [ -n \"$FAKE_EXIT\" ]; then exit \"$FAKE_EXIT\"; fi
if [ -n \"$nomatch$FAKE_EMPTY\" ]; then
  echo 'Failed to match any benchmarks against regex: nomatch'
  : > \"$out\"
  exit 0
fi
cp \"${SAMPLE}\" \"$out\"
")
foreach(dir env path)
  file(COPY "${WORK}/tendon-bench.in" DESTINATION "${WORK}/${dir}"
       FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
  file(RENAME "${WORK}/${dir}/tendon-bench.in" "${WORK}/${dir}/tendon-bench")
endforeach()

set(ENV{TMPDIR} "${WORK}")
set(ENV{PATH} "/nonexistent")
unset(ENV{TENDON_BENCH})
unset(ENV{FAKE_EXIT})
unset(ENV{FAKE_EMPTY})

# run(<expected exit status> <stdout regex> <stderr regex> args...)
function(run expect_rc out_re err_re)
  execute_process(COMMAND ${emu} "${tendon}" bench ${ARGN} OUTPUT_VARIABLE out ERROR_VARIABLE err
                  RESULT_VARIABLE rc)
  if(NOT rc STREQUAL "${expect_rc}" OR NOT out MATCHES "${out_re}" OR NOT err MATCHES "${err_re}")
    message(FATAL_ERROR "tendon bench ${ARGN} (TENDON_BENCH=$ENV{TENDON_BENCH} PATH=$ENV{PATH} "
                        "FAKE_EXIT=$ENV{FAKE_EXIT}): exit ${rc}, expected ${expect_rc}\n"
                        "stdout (should match ${out_re}):\n${out}\n"
                        "stderr (should match ${err_re}):\n${err}")
  endif()
  set(OUT "${out}" PARENT_SCOPE)
endfunction()

set(table "kernel +count +item +scalar[^\n]*\npose_blend +16 +joint +7\\.24")

# Nowhere to be found: a clear error.
run(1 "^$" "cannot find the benchmark harness tendon-bench.*TENDON_BENCH")
# TENDON_BENCH names something that is not there.
set(ENV{TENDON_BENCH} "${WORK}/missing/tendon-bench")
run(1 "^$" "TENDON_BENCH=.*missing/tendon-bench is not an executable file")
# TENDON_BENCH: options passed on, harness output on stderr, the table on stdout.
set(ENV{TENDON_BENCH} "${WORK}/env/tendon-bench")
run(0 "${table}"
    "stand-in harness args: --benchmark_out=[^ ]+ --benchmark_out_format=json --benchmark_filter=pose_blend/\\.\\* --benchmark_min_time=0\\.01 --tendon_emulated\n"
    --filter "pose_blend/.*" --min-time 0.01 --emulated)
# A long --filter and --min-time are passed on whole (fixed buffers cut them at 1004 and 42
# characters: another regex, and a min time of 0, without a word).
string(REPEAT "|pose_add/avx2/1024" 80 long_alternatives)
string(REPEAT "0" 60 zeros)
string(REPLACE "|" "\\|" long_alternatives_re "${long_alternatives}")
run(0 "${table}"
    "stand-in harness args: --benchmark_out=[^ ]+ --benchmark_out_format=json --benchmark_filter=pose_blend/16${long_alternatives_re}\\|pose_blend/sse2/16 --benchmark_min_time=0\\.${zeros}1\n"
    --filter "pose_blend/16${long_alternatives}|pose_blend/sse2/16" --min-time "0.${zeros}1")
if(OUT MATCHES "stand-in harness")
  message(FATAL_ERROR "the harness's own output reached stdout:\n${OUT}")
endif()
file(GLOB leftovers "${WORK}/tendon-bench-*")
if(leftovers)
  message(FATAL_ERROR "temporary results left behind: ${leftovers}")
endif()
# --json keeps the raw results.
run(0 "${table}" "stand-in harness args: --benchmark_out=${WORK}/raw\\.json " --json "${WORK}/raw.json")
file(SHA256 "${WORK}/raw.json" got)
file(SHA256 "${SAMPLE}" want)
if(NOT got STREQUAL want)
  message(FATAL_ERROR "--json ${WORK}/raw.json does not hold the harness's JSON")
endif()
# --json - writes the harness's JSON to stdout, byte for byte, instead of the table; a temporary
# file carries it and is removed.
execute_process(COMMAND ${emu} "${tendon}" bench --json - OUTPUT_FILE "${WORK}/stdout.json"
                ERROR_VARIABLE err RESULT_VARIABLE rc)
file(SHA256 "${WORK}/stdout.json" got)
if(NOT rc EQUAL 0 OR NOT got STREQUAL want OR NOT err MATCHES "stand-in harness args: --benchmark_out=${WORK}/tendon-bench-")
  message(FATAL_ERROR "tendon bench --json -: exit ${rc}, stdout is not the harness's JSON "
                      "unchanged, or the harness did not write to a temporary file:\n${err}")
endif()
file(GLOB leftovers "${WORK}/tendon-bench-*")
if(leftovers)
  message(FATAL_ERROR "--json -: temporary results left behind: ${leftovers}")
endif()
# The table says which time its nanoseconds are.
run(0 "\n# ns per item of CPU time [^\n]*not wall time[^\n]*\n${table}" "")
# A failing harness.
set(ENV{FAKE_EXIT} 3)
run(1 "^$" "exited with status 3")
unset(ENV{FAKE_EXIT})
# A filter that matches no benchmark: Google Benchmark writes no JSON and exits 0; tendon says
# so (exit 2: nothing it was asked to measure), not "cannot read … as JSON", and leaves no
# temporary file. With no filter, a harness that ran nothing has failed (exit 1).
run(2 "^$" "Failed to match any benchmarks against regex: nomatch\ntendon bench: no benchmark ran: none matched --filter \"nomatch\" [^\n]*kernel/isa/count[^\n]*\n$"
    --filter nomatch)
file(GLOB leftovers "${WORK}/tendon-bench-*")
if(leftovers)
  message(FATAL_ERROR "temporary results left behind: ${leftovers}")
endif()
set(ENV{FAKE_EMPTY} 1)
run(1 "^$" "\ntendon bench: the harness ran no benchmark\n$")
unset(ENV{FAKE_EMPTY})
# An invalid regular expression never reaches the harness: a usage error.
run(2 "^$" "^tendon bench: --filter \"\\(\" is not a valid regular expression: [^\n]+\nhint: `tendon bench --help`"
    --filter "(")
run(2 "^$" "^tendon bench: --filter \"\\[\" is not a valid regular expression: " --filter "[")
# PATH, when TENDON_BENCH is not set.
unset(ENV{TENDON_BENCH})
set(ENV{PATH} "/nonexistent:${WORK}/path")
run(0 "${table}" "stand-in harness args")
# Next to the executable wins over TENDON_BENCH.
file(COPY "${WORK}/env/tendon-bench" DESTINATION "${WORK}/bin")
set(ENV{TENDON_BENCH} "${WORK}/missing/tendon-bench")
run(0 "${table}" "stand-in harness args")
# Usage errors.
run(2 "^$" "--min-time must be a positive number" --min-time -1)
run(2 "^$" "--from-json formats existing results: it takes no other option"
    --from-json "${SAMPLE}" --filter x)
run(2 "^$" "unknown argument \"--bogus\"" --bogus)
