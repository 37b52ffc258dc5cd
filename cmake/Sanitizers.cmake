# -DASCENDSIM_SANITIZE=address,undefined instruments the project's own code (every target that
# links ascendsim_options); SystemC and the other Debian libraries stay as built, so a sanitized
# build costs a rebuild of ours only. -DASCENDSIM_FUZZ=ON (clang) adds libFuzzer coverage and the
# targets of fuzz/. docs/reliability.md has the commands.
set(ASCENDSIM_SANITIZE "" CACHE STRING "Sanitizers for the project's code, e.g. address,undefined")
option(ASCENDSIM_FUZZ "Build the libFuzzer targets of fuzz/ (needs clang)" OFF)
# The build type scripts/run_sanitized_tests.sh uses. -Og -g1 instead of RelWithDebInfo's -O2 -g:
# measured on simulation.cpp and cube_matmul_test.cpp under address,undefined, GCC 12 spends 33 %
# and 38 % of the -O2 -g CPU time (optimisation and full debug info of the instrumented code are
# most of it); the sanitizers check the same at -Og, and -g1 keeps the line tables their reports
# need. NDEBUG as in the other build types, so the checked code is the code that ships.
# (project() has already made the variable, empty, for this build type; a value given with -D stays.)
if(NOT CMAKE_CXX_FLAGS_SANITIZE)
  set(CMAKE_CXX_FLAGS_SANITIZE "-Og -g1 -DNDEBUG" CACHE STRING "Compile flags of the Sanitize build type" FORCE)
endif()

if(ASCENDSIM_SANITIZE)
  string(REPLACE "," ";" sanitizers "${ASCENDSIM_SANITIZE}")
  foreach(s ${sanitizers})
    if(NOT s MATCHES "^(address|undefined|leak)$")
      message(FATAL_ERROR "ASCENDSIM_SANITIZE: unknown sanitizer '${s}' (address, undefined, leak)")
    endif()
  endforeach()
  target_compile_options(ascendsim_options INTERFACE -fsanitize=${ASCENDSIM_SANITIZE}
    -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(ascendsim_options INTERFACE -fsanitize=${ASCENDSIM_SANITIZE})
endif()

if(ASCENDSIM_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "ASCENDSIM_FUZZ needs clang (libFuzzer): CXX=clang++ cmake ...")
  endif()
  target_compile_options(ascendsim_options INTERFACE -fsanitize=fuzzer-no-link)
endif()
