// libcamera is C++ only: Swift sees none of its headers. This module brings its
// compiler and linker flags (pkg-config libcamera) to CLibcamera, the C++ target with a
// C interface that Swift calls.
#pragma once
