# What `cmake --install` puts in place (GNUInstallDirs: /usr/local unless CMAKE_INSTALL_PREFIX
# says otherwise; DESTDIR for packages): the command, its man page, its shell completions in
# the directories each shell searches, and the two documents a user of the files may need.
# Nothing else: the tests, the ACVP harness and the benchmarks stay in the build tree.
# packaging/expected-files.txt is the resulting list; scripts/test-package.sh checks it.
include(GNUInstallDirs)

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
