# cmake -DPROGRAM=<ascendsim> -DVERSION=<x.y.z> -DOUTPUT=<ascendsim.1.gz> -P make_man_page.cmake
# Writes a man(7) page whose body is the program's --help text, gzip-compressed as Debian wants.
# Run as installed: the defaults the help shows are the installed ones, not this build tree's.
execute_process(COMMAND ${CMAKE_COMMAND} -E env ASCENDSIM_CONFIG_DIR=/usr/share/ascendsim/configs
                        ${PROGRAM} --help OUTPUT_VARIABLE help RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} --help failed (${status})")
endif()
string(REPLACE "${PROGRAM}" "ascendsim" help "${help}")
# roff: a backslash starts an escape and a leading dot or quote a request.
string(REPLACE "\\" "\\e" help "${help}")
string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" help "${help}")
set(page ".TH ASCENDSIM 1 \"\" \"ascendsim ${VERSION}\" \"User Commands\"
.SH NAME
ascendsim \\- cycle-approximate Ascend NPU simulator with a torch_npu-compatible profiler
.SH SYNOPSIS
.B ascendsim
\\-\\-workload FILE [OPTIONS]
.br
.B ascendsim
SUBCOMMAND [OPTIONS]
.SH DESCRIPTION
Simulates a workload on a Huawei Ascend NPU model and writes the profiling directories that
torch_npu.profiler and msprof write on hardware. The options and subcommands below are the
program's own \\-\\-help.
.SH OPTIONS
.nf
${help}.fi
.SH FILES
.TP
.I /usr/share/ascendsim/configs
chip configurations (override with \\-\\-config\\-dir or ASCENDSIM_CONFIG_DIR)
.TP
.I /usr/share/ascendsim/workloads
the shipped workloads
.SH SEE ALSO
/usr/share/doc/ascendsim/README.md
")
get_filename_component(out_dir ${OUTPUT} DIRECTORY)
get_filename_component(out_name ${OUTPUT} NAME_WLE)
file(MAKE_DIRECTORY ${out_dir})
file(WRITE ${out_dir}/${out_name} "${page}")
# -n: no name or time stamp in the gzip header, so the page is byte-identical between builds.
execute_process(COMMAND gzip -n -9 -f ${out_dir}/${out_name} RESULT_VARIABLE gzip_status)
if(NOT gzip_status EQUAL 0)
  message(FATAL_ERROR "gzip failed on ${out_dir}/${out_name}")
endif()
