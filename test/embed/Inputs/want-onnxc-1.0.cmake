find_package(onnxc 1.0 CONFIG REQUIRED)
