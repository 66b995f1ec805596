"""Run llama-cpp-python's OpenAI-compatible server (``python llama_server.py ARGS`` = ``python -m llama_cpp.server
ARGS``) with llama.cpp's extra weight buffer types turned off.

Why: on a CPU that reports AMX where the kernel does not grant its tile state (this project's 2-core build
machine, a container), llama.cpp's AMX buffer type crashes in its first matrix product (SIGSEGV in
``ggml_backend_amx_mul_mat``, seen with llama-cpp-python 0.3.36), and the server has no option for the model
parameter that avoids it (``use_extra_bufts``). Without those buffer types the weights are used as loaded: the
answers are the same, only the repacking for speed is skipped.
"""

from __future__ import annotations

import runpy


def main() -> None:
    import llama_cpp.llama_cpp as low_level  # here: collecting this file for doctests must start nothing

    defaults = low_level.llama_model_default_params

    def without_extra_buffers():  # type: ignore[no-untyped-def]
        params = defaults()
        params.use_extra_bufts = False
        return params

    low_level.llama_model_default_params = without_extra_buffers
    runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
