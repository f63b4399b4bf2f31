# CPack pre-build script (CPACK_PRE_BUILD_SCRIPTS): Debian policy wants manual pages compressed
# with `gzip -9n`. `cmake --install` keeps them plain (man reads both); the package's staging tree
# gets them compressed here, after CPack installed it and before it is packed.
file(GLOB_RECURSE files LIST_DIRECTORIES false "${CPACK_TEMPORARY_DIRECTORY}/*")
foreach(f ${files})
  if(f MATCHES "/share/man/man[1-9]/[^/]+\\.[1-9]$")
    execute_process(COMMAND gzip -9nf "${f}" COMMAND_ERROR_IS_FATAL ANY)
  endif()
endforeach()
