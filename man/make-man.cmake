# Builds apcgate.1 from apcgate.1.in and the program's own --help output (cmake -P script).
# In: APCGATE (the binary), EMULATOR (optional: runs a cross-built binary), TEMPLATE, OUTPUT,
# APCGATE_VERSION, APCGATE_CONFIG_FILE.
function(help_of out)
  execute_process(COMMAND ${EMULATOR} ${APCGATE} ${ARGN} --help OUTPUT_VARIABLE text
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "apcgate ${ARGN} --help failed (${rc})")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# roff: backslashes doubled, and no line may start with '.' or '\''.
function(roff_literal out text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" text "${text}")
  set(${out} ".nf\n${text}\n.fi\n" PARENT_SCOPE)
endfunction()

help_of(main)
roff_literal(block "${main}")
set(sections ".SH OPTIONS\n${block}")

# Every subcommand the program lists, so a new one appears here without editing this script.
string(REGEX MATCH "[Ss][Uu][Bb][Cc][Oo][Mm][Mm][Aa][Nn][Dd][Ss]:\n(.*)" _ "${main}")
string(REPLACE "\n" ";" lines "${CMAKE_MATCH_1}")
foreach(line ${lines})
  if(line MATCHES "^  ([a-z][a-z0-9-]*)( |$)")
    set(sub ${CMAKE_MATCH_1})
    help_of(text ${sub})
    roff_literal(block "${text}")
    string(TOUPPER "${sub}" upper)
    string(APPEND sections ".SH ${upper} OPTIONS\n${block}")
  endif()
endforeach()

set(APCGATE_HELP_SECTIONS "${sections}")
configure_file(${TEMPLATE} ${OUTPUT} @ONLY)
