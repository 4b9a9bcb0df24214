# What `cmake --install` puts in place (GNUInstallDirs: /usr/local unless CMAKE_INSTALL_PREFIX
# says otherwise; DESTDIR for packages): the command, its man page, its shell completions in
# the directories each shell searches, and the two documents a user of the files may need;
# the library, its header, its pkg-config file and its CMake package.
# Nothing else: the tests, the ACVP harness and the benchmarks stay in the build tree.
# packaging/expected-files.txt is the resulting list; scripts/test-package.sh checks it.
include(GNUInstallDirs)

if(TARGET warpcrypt)
  install(TARGETS warpcrypt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${PROJECT_SOURCE_DIR}/docs/man/warpcrypt.1
          DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  # bash-completion loads completions/NAME on the first completion of NAME.
  install(FILES ${PROJECT_SOURCE_DIR}/completions/warpcrypt.bash
          DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME warpcrypt)
  install(FILES ${PROJECT_SOURCE_DIR}/completions/_warpcrypt
          DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
  install(FILES ${PROJECT_SOURCE_DIR}/completions/warpcrypt.fish
          DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
  # SPEC.md is the container format byte by byte: what another implementation needs to read
  # the files this one writes.
  install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/formats/warp/SPEC.md
          DESTINATION ${CMAKE_INSTALL_DOCDIR})
endif()

if(TARGET libwarpcrypt)
  include(CMakePackageConfigHelpers)
  # The versioned file for programs that run, the unversioned link and the header for those
  # that build (a distribution splits them into the library and -dev packages).
  install(TARGETS libwarpcrypt EXPORT warpcrypt-targets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT library
                  NAMELINK_COMPONENT development
          PUBLIC_HEADER DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT development)
  set(warpcrypt_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/warpcrypt)
  install(EXPORT warpcrypt-targets NAMESPACE warpcrypt:: DESTINATION ${warpcrypt_cmake_dir}
          COMPONENT development)
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/warpcrypt-config.cmake.in
    ${PROJECT_BINARY_DIR}/warpcrypt-config.cmake INSTALL_DESTINATION ${warpcrypt_cmake_dir})
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/warpcrypt-config-version.cmake
    COMPATIBILITY SameMajorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/warpcrypt-config.cmake
                ${PROJECT_BINARY_DIR}/warpcrypt-config-version.cmake
          DESTINATION ${warpcrypt_cmake_dir} COMPONENT development)
  # pkg-config: the prefix found from where the .pc file lies (${pcfiledir}), so that the
  # file stays right wherever `cmake --install --prefix` or DESTDIR puts the tree.
  file(RELATIVE_PATH warpcrypt_pc_to_prefix "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/warpcrypt.pc.in ${PROJECT_BINARY_DIR}/warpcrypt.pc
                 @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/warpcrypt.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT development)
endif()
