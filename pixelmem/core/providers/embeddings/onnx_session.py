"""One way to open an ONNX model for the built-in embedders: CPU, a few threads, no spinning."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def open_cpu_session(path: Path, threads: int) -> Any:
    """An onnxruntime session on ``path``; onnxruntime's own (untyped) errors pass through."""
    import onnxruntime as ort  # imported on first use: it is slow to import

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.log_severity_level = 3
    # Idle worker threads must not spin: they would take CPU from the UI thread.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), sess_options=options, providers=["CPUExecutionProvider"])
