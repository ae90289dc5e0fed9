# onnxc_add_model(<target> MODEL <file.onnx|.onnxtxt> [NAME <c-prefix>]
#                 [TYPE STATIC|SHARED|OBJECT] [OPT 0-3] [MCPU <cpu>]
#                 [TARGET_TRIPLE <triple>] [FLAGS <onnxc flags>...])
#
# Compiles MODEL with onnxc at build time and adds it to <target>, an
# INTERFACE library that gives what links it the model's headers (NAME.h,
# NAME.hpp) and its code:
#   STATIC (default)  NAME.a from `onnxc --emit=staticlib` (the model and
#                     the runtime; several models link into one program)
#   SHARED            NAME.so from `onnxc` (the runtime inside)
#   OBJECT            NAME.o from `onnxc --emit=obj`, with onnxc::runtime
# Calling it again with the same <target> adds another model to it (of the
# same TYPE, with another NAME). NAME defaults to the model file's stem as a
# C identifier; OPT to onnxc's default (2); MCPU to the host CPU (or the
# generic CPU of TARGET_TRIPLE); TARGET_TRIPLE to the toolchain's when
# cross-compiling (CMAKE_<LANG>_COMPILER_TARGET, CMAKE_LIBRARY_ARCHITECTURE,
# else `<compiler> -dumpmachine`), else the host. FLAGS go to onnxc as they
# are. The model is compiled again when its file, onnxc or the runtime
# changes. Errors are one line, naming the target.
#
# docs/embedding.md has the whole story.

cmake_minimum_required(VERSION 3.20)

# Errors: message(FATAL_ERROR " <target>: ...") with a leading space, which
# CMake prints as one line instead of wrapping it.

# The triple of the toolchain when cross-compiling, else "".
function(_onnxc_default_triple out)
  set(triple "")
  if(CMAKE_CROSSCOMPILING)
    foreach(lang C CXX)
      if(NOT triple AND CMAKE_${lang}_COMPILER_TARGET)
        set(triple "${CMAKE_${lang}_COMPILER_TARGET}")
      endif()
    endforeach()
    if(NOT triple AND CMAKE_LIBRARY_ARCHITECTURE)
      set(triple "${CMAKE_LIBRARY_ARCHITECTURE}")
    endif()
    if(NOT triple)
      foreach(lang C CXX)
        if(NOT triple AND CMAKE_${lang}_COMPILER)
          execute_process(COMMAND "${CMAKE_${lang}_COMPILER}" -dumpmachine
            OUTPUT_VARIABLE triple OUTPUT_STRIP_TRAILING_WHITESPACE
            ERROR_QUIET)
        endif()
      endforeach()
    endif()
  endif()
  set(${out} "${triple}" PARENT_SCOPE)
endfunction()

function(onnxc_add_model target)
  set(where "onnxc_add_model(${target})")
  cmake_parse_arguments(PARSE_ARGV 1 ARG ""
    "MODEL;NAME;TYPE;OPT;MCPU;TARGET_TRIPLE" "FLAGS")
  if(ARG_UNPARSED_ARGUMENTS)
    list(JOIN ARG_UNPARSED_ARGUMENTS " " extra)
    message(FATAL_ERROR " ${where}: unknown arguments '${extra}' (MODEL, NAME, TYPE, OPT, MCPU, TARGET_TRIPLE, FLAGS)")
  endif()
  foreach(kw MODEL NAME TYPE OPT MCPU TARGET_TRIPLE)
    if(${kw} IN_LIST ARG_KEYWORDS_MISSING_VALUES)
      message(FATAL_ERROR " ${where}: ${kw} needs a value")
    endif()
  endforeach()
  if(NOT ARG_MODEL)
    message(FATAL_ERROR " ${where}: MODEL <file.onnx|.onnxtxt> is required")
  endif()
  get_filename_component(model "${ARG_MODEL}" ABSOLUTE
    BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${model}" OR IS_DIRECTORY "${model}")
    message(FATAL_ERROR " ${where}: MODEL '${ARG_MODEL}' is not a file")
  endif()

  if(DEFINED ARG_NAME)
    set(name "${ARG_NAME}")
    if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
      message(FATAL_ERROR " ${where}: NAME '${name}' is not a C identifier")
    endif()
  else()
    get_filename_component(stem "${model}" NAME_WLE)
    string(MAKE_C_IDENTIFIER "${stem}" name)
  endif()

  set(type STATIC)
  if(DEFINED ARG_TYPE)
    string(TOUPPER "${ARG_TYPE}" type)
    if(NOT type MATCHES "^(STATIC|SHARED|OBJECT)$")
      message(FATAL_ERROR " ${where}: TYPE '${ARG_TYPE}' is not STATIC, SHARED or OBJECT")
    endif()
  endif()

  set(flags "")
  if(DEFINED ARG_OPT)
    if(NOT ARG_OPT MATCHES "^[0-3]$")
      message(FATAL_ERROR " ${where}: OPT '${ARG_OPT}' is not 0, 1, 2 or 3")
    endif()
    list(APPEND flags "-O${ARG_OPT}")
  endif()
  if(DEFINED ARG_MCPU)
    list(APPEND flags "--mcpu=${ARG_MCPU}")
  endif()
  set(triple "${ARG_TARGET_TRIPLE}")
  if(NOT triple)
    _onnxc_default_triple(triple)
  endif()
  if(triple)
    list(APPEND flags "--mtriple=${triple}")
  endif()
  list(APPEND flags ${ARG_FLAGS})

  # The target: a new interface library, or one made here before.
  if(TARGET ${target})
    get_target_property(made ${target} ONNXC_MODEL_TYPE)
    if(NOT made)
      message(FATAL_ERROR " ${where}: '${target}' is a target that onnxc_add_model did not make")
    endif()
    if(NOT made STREQUAL type)
      message(FATAL_ERROR " ${where}: TYPE ${type} for a target whose models are ${made}")
    endif()
    get_target_property(names ${target} ONNXC_MODEL_NAMES)
    if(name IN_LIST names)
      message(FATAL_ERROR " ${where}: two models named '${name}' in one target (give one another NAME)")
    endif()
  else()
    add_library(${target} INTERFACE)
    set_target_properties(${target} PROPERTIES ONNXC_MODEL_TYPE ${type}
      ONNXC_MODEL_NAMES "")
  endif()
  set_property(TARGET ${target} APPEND PROPERTY ONNXC_MODEL_NAMES ${name})

  set(dir "${CMAKE_CURRENT_BINARY_DIR}/onnxc_models/${target}")
  file(MAKE_DIRECTORY "${dir}")
  if(type STREQUAL "STATIC")
    set(lib "${dir}/${name}.a")
    list(APPEND flags "--emit=staticlib")
  elseif(type STREQUAL "SHARED")
    set(lib "${dir}/${name}.so")
  else()
    set(lib "${dir}/${name}.o")
    list(APPEND flags "--emit=obj")
  endif()
  add_custom_command(
    OUTPUT "${lib}" "${dir}/${name}.h" "${dir}/${name}.hpp"
    COMMAND onnxc::onnxc "${model}" -o "${lib}" "--name=${name}" ${flags}
    DEPENDS "${model}" "$<TARGET_FILE:onnxc::onnxc>"
            "$<TARGET_FILE:onnxc::runtime>"
    COMMENT "onnxc: compiling model ${name} (${type}) for ${target}"
    VERBATIM)
  add_custom_target(${target}_onnxc_${name} DEPENDS "${lib}")
  add_dependencies(${target} ${target}_onnxc_${name})
  target_include_directories(${target} INTERFACE "${dir}")
  if(type STREQUAL "SHARED")
    # An imported library with its soname: CMake links it by its path and
    # puts its directory in the build tree's run path.
    add_library(${target}_onnxc_${name}_lib SHARED IMPORTED GLOBAL)
    set_target_properties(${target}_onnxc_${name}_lib PROPERTIES
      IMPORTED_LOCATION "${lib}" IMPORTED_SONAME "${name}.so")
    target_link_libraries(${target} INTERFACE ${target}_onnxc_${name}_lib)
  else()
    target_link_libraries(${target} INTERFACE "${lib}")
  endif()
  if(type STREQUAL "OBJECT")
    target_link_libraries(${target} INTERFACE onnxc::runtime)
  elseif(type STREQUAL "STATIC")
    target_link_libraries(${target} INTERFACE Threads::Threads m)
  endif()
endfunction()
