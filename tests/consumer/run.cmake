# ctest driver: install the build into a scratch prefix, then build and run the consumers
# against it every way an engine would:
#   - CMake package, shared and static: consumer (tendon::tendon / tendon::tendon_static), and
#     with -D GLTF=ON consumer_gltf (find_package(tendon COMPONENTS gltf): tendon::gltf /
#     tendon::gltf_static);
#   - pkg-config: `tendon` (shared), and with GLTF `tendon-gltf` shared and `--static`;
#   - a component tendon does not have is refused by find_package, naming it.
# Each executable's dynamic section is checked: the shared ones need the sonames of the version
# policy (libtendon.so.0.MINOR, libtendon_gltf.so.0.MINOR), the static ones no libtendon at all.
# The install's share/tendon is checked too, and with -D TOOLS=ON that the installed `tendon`
# finds its golden digest and case format there.
# -D BUILD_DIR=… -D SOURCE_DIR=… -D WORK_DIR=… -D C_COMPILER=… -D SONAME_VERSION=0.N
# [-D GLTF=ON -D FOX=…/Fox.glb] [-D TOOLS=ON] [-D C_FLAGS=… -D LINK_FLAGS=…]
# (the flags carry a sanitizer build's instrumentation into the consumer, which links its library)
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}\n${out}\n${err}")
  endif()
  message("${out}")
endfunction()
# needs(<exe> <yes|no> <soname>...): the executable's DT_NEEDED entries do (or do not) hold each.
function(needs exe want)
  execute_process(COMMAND readelf -d ${exe} OUTPUT_VARIABLE dyn RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "readelf -d ${exe} failed")
  endif()
  foreach(lib ${ARGN})
    string(FIND "${dyn}" "[${lib}]" at)
    if(want STREQUAL "yes" AND at EQUAL -1)
      message(FATAL_ERROR "${exe} does not need ${lib}:\n${dyn}")
    elseif(want STREQUAL "no" AND NOT at EQUAL -1)
      message(FATAL_ERROR "${exe} needs ${lib}, but was to link it statically:\n${dyn}")
    endif()
  endforeach()
endfunction()
function(needs_no_tendon exe)
  execute_process(COMMAND readelf -d ${exe} OUTPUT_VARIABLE dyn)
  if(dyn MATCHES "\\[libtendon")
    message(FATAL_ERROR "${exe} needs a libtendon shared object, but was to link statically:\n${dyn}")
  endif()
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

# share/tendon: what the installed tools read, and the licence; the installed tools find it
# from the prefix (never from the source tree), with no TENDON_DATA_DIR.
foreach(f golden.digest CASES-README.md LICENSE NOTICE)
  if(NOT EXISTS ${prefix}/share/tendon/${f})
    message(FATAL_ERROR "the install has no share/tendon/${f}")
  endif()
endforeach()
if(TOOLS)
  unset(ENV{TENDON_DATA_DIR})
  execute_process(COMMAND ${prefix}/bin/tendon digest --expect --summary
                  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "digest: all [0-9]+ kernels x [0-9]+ ISAs match ${prefix}/bin/\\.\\./share/tendon/golden\\.digest\n")
    message(FATAL_ERROR "the installed `tendon digest --expect --summary` did not check the "
            "installed golden file (${rc}):\n${out}\n${err}")
  endif()
  message("${out}")
  execute_process(COMMAND ${prefix}/bin/tendon replay --help OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT out MATCHES "\nThe case format: ${prefix}/bin/\\.\\./share/tendon/CASES-README\\.md\n")
    message(FATAL_ERROR "the installed `tendon replay --help` does not name the installed case "
            "format:\n${out}")
  endif()
endif()
set(core_so libtendon.so.${SONAME_VERSION})
set(gltf_so libtendon_gltf.so.${SONAME_VERSION})
if(NOT EXISTS ${prefix}/lib/${core_so})
  message(FATAL_ERROR "the install has no ${core_so} (the soname policy: 0.MINOR)")
endif()
foreach(kind shared static)
  if(kind STREQUAL "static")
    set(flag ON)
  else()
    set(flag OFF)
  endif()
  set(bdir ${WORK_DIR}/build-${kind})
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${bdir} -DCMAKE_PREFIX_PATH=${prefix}
      -DCMAKE_C_COMPILER=${C_COMPILER} -DCONSUMER_STATIC=${flag} -DCONSUMER_GLTF=${GLTF}
      "-DCMAKE_C_FLAGS=${C_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINK_FLAGS}")
  run(${CMAKE_COMMAND} --build ${bdir})
  run(${bdir}/consumer)
  if(kind STREQUAL "static")
    needs_no_tendon(${bdir}/consumer)
  else()
    needs(${bdir}/consumer yes ${core_so})
  endif()
  if(GLTF)
    run(${bdir}/consumer_gltf ${FOX})
    if(kind STREQUAL "static")
      needs_no_tendon(${bdir}/consumer_gltf)
    else()
      needs(${bdir}/consumer_gltf yes ${gltf_so})
      needs(${prefix}/lib/${gltf_so} yes ${core_so})
    endif()
  endif()
endforeach()

# A component the package does not have: find_package fails and names it.
file(WRITE ${WORK_DIR}/bogus/CMakeLists.txt
  "cmake_minimum_required(VERSION 3.25)\nproject(bogus LANGUAGES C)\n"
  "find_package(tendon REQUIRED COMPONENTS animation_compression)\n")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${WORK_DIR}/bogus -B ${WORK_DIR}/bogus/build
                -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_C_COMPILER=${C_COMPILER}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT "${out}${err}" MATCHES "no component \"animation_compression\"")
  message(FATAL_ERROR "find_package(tendon COMPONENTS animation_compression) was not refused "
          "by name (${rc}):\n${out}\n${err}")
endif()

# pkg-config, as a Makefile-based engine would
set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
function(pkgconfig var)
  execute_process(COMMAND pkg-config ${ARGN} OUTPUT_VARIABLE pc
                  OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pkg-config ${ARGN} fails with ${prefix}/lib/pkgconfig: ${err}")
  endif()
  separate_arguments(pc UNIX_COMMAND "${pc}")
  set(${var} ${pc} PARENT_SCOPE)
endfunction()
separate_arguments(extra UNIX_COMMAND "${C_FLAGS} ${LINK_FLAGS}")
pkgconfig(pc --cflags --libs tendon)
run(${C_COMPILER} -std=c11 -ffp-contract=off ${extra} ${SOURCE_DIR}/main.c ${pc}
    -Wl,-rpath,${prefix}/lib -o ${WORK_DIR}/consumer-pc)
run(${WORK_DIR}/consumer-pc)
needs(${WORK_DIR}/consumer-pc yes ${core_so})
if(GLTF)
  pkgconfig(pc --modversion tendon-gltf)
  execute_process(COMMAND pkg-config --modversion tendon OUTPUT_VARIABLE core_version
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT pc STREQUAL core_version)
    message(FATAL_ERROR "tendon-gltf.pc is version ${pc}, tendon.pc ${core_version}")
  endif()
  # shared: -ltendon_gltf -ltendon, the sonames of the policy
  pkgconfig(pc --cflags --libs tendon-gltf)
  run(${C_COMPILER} -std=c11 -ffp-contract=off ${extra} ${SOURCE_DIR}/main_gltf.c ${pc} -lm
      -Wl,-rpath,${prefix}/lib -o ${WORK_DIR}/consumer-gltf-pc)
  run(${WORK_DIR}/consumer-gltf-pc ${FOX})
  needs(${WORK_DIR}/consumer-gltf-pc yes ${gltf_so} ${core_so})
  # static: `pkg-config --static` adds what the archives need (jansson, libm); the tendon
  # archives are chosen over the shared objects with -Bstatic (docs/integration.md)
  pkgconfig(pc --cflags --libs --static tendon-gltf)
  set(static_pc "")
  foreach(arg ${pc})
    if(arg MATCHES "^-ltendon")
      list(APPEND static_pc -Wl,-Bstatic ${arg} -Wl,-Bdynamic)
    else()
      list(APPEND static_pc ${arg})
    endif()
  endforeach()
  run(${C_COMPILER} -std=c11 -ffp-contract=off ${extra} ${SOURCE_DIR}/main_gltf.c ${static_pc}
      -o ${WORK_DIR}/consumer-gltf-pc-static)
  run(${WORK_DIR}/consumer-gltf-pc-static ${FOX})
  needs_no_tendon(${WORK_DIR}/consumer-gltf-pc-static)
endif()
