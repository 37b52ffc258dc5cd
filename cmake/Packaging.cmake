# Install layout and the Debian package (scripts/package.sh builds it):
#   bin/ascendsim                      the program
#   share/ascendsim/configs/           chip configs, found at run time beside the program
#                                      (sim/config/chip_config_loader.h installedConfigDir)
#   share/ascendsim/workloads/         the shipped workloads
#   share/doc/ascendsim/               README and docs/
#   share/man/man1/ascendsim.1.gz      man page generated from --help at build time
include(GNUInstallDirs)

install(TARGETS ascendsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/configs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/ascendsim/configs
  FILES_MATCHING PATTERN "*.yaml")
install(DIRECTORY ${CMAKE_SOURCE_DIR}/workloads/ DESTINATION ${CMAKE_INSTALL_DATADIR}/ascendsim/workloads
  FILES_MATCHING PATTERN "*.yaml")
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${CMAKE_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The man page is the program's own --help, so it cannot drift from the options.
set(ASCENDSIM_MAN_PAGE ${CMAKE_BINARY_DIR}/man/ascendsim.1.gz)
add_custom_command(OUTPUT ${ASCENDSIM_MAN_PAGE}
  COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:ascendsim> -DVERSION=${PROJECT_VERSION}
          -DOUTPUT=${ASCENDSIM_MAN_PAGE} -P ${CMAKE_SOURCE_DIR}/cmake/make_man_page.cmake
  DEPENDS ascendsim ${CMAKE_SOURCE_DIR}/cmake/make_man_page.cmake
  COMMENT "Generating the ascendsim man page from --help")
add_custom_target(ascendsim_man_page ALL DEPENDS ${ASCENDSIM_MAN_PAGE})
install(FILES ${ASCENDSIM_MAN_PAGE} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ascendsim)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "ascendsim developers <ascendsim@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "Cycle-approximate Ascend NPU simulator with a torch_npu-compatible profiler")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# dpkg-shlibdeps reads the binary's DT_NEEDED libraries and names the Debian packages that ship them
# (libsystemc, libyaml-cpp0.7, libspdlog1.10, libfmt9, libsqlite3-0, libstdc++6, libc6, ...), so
# Depends lists exactly the runtime libraries the program links.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
include(CPack)
