"""aclnn_cpu.torch: PyTorch's CPU convolution backward through aclnn-cpu inside ``enable`` blocks."""

from __future__ import annotations

import textwrap
import threading
from typing import Any, Dict, List, Tuple

import pytest

from conftest import python_env, raw, run_python

torch = pytest.importorskip("torch")
import aclnn_cpu  # noqa: E402
import aclnn_cpu.torch as at  # noqa: E402  (needs torch)

LAYERS = {
    "Conv1d": (lambda: torch.nn.Conv1d(3, 4, 3, stride=2, padding=1), (2, 3, 11)),
    "Conv2d": (lambda: torch.nn.Conv2d(3, 4, 3, padding=(1, 2), dilation=(1, 2), groups=1), (2, 3, 8, 9)),
    "Conv3d": (lambda: torch.nn.Conv3d(4, 6, 3, groups=2, padding=1), (1, 4, 4, 5, 4)),
    "ConvTranspose1d": (lambda: torch.nn.ConvTranspose1d(3, 4, 3, stride=2, output_padding=1), (2, 3, 7)),
    "ConvTranspose2d": (lambda: torch.nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, groups=2), (2, 4, 5, 5)),
    "ConvTranspose3d": (lambda: torch.nn.ConvTranspose3d(2, 3, 2, stride=2), (1, 2, 3, 3, 3)),
}


def layer_and_input(name: str, seed: int = 0) -> Tuple[Any, Any, Any]:
    torch.manual_seed(seed)
    make, shape = LAYERS[name]
    layer = make()
    x = torch.randn(shape, requires_grad=True)
    r = torch.randn(layer(x).shape)  # the loss is (y * r).sum(), so r is y's gradient
    return layer, x, r


def backward(layer: Any, x: Any, r: Any) -> List[Any]:
    layer.zero_grad()
    x.grad = None
    (layer(x) * r).sum().backward()
    return [x.grad.clone(), layer.weight.grad.clone(), layer.bias.grad.clone()]


def direct(layer: Any, x: Any, r: Any, **kwargs: Any) -> List[Any]:
    """The same gradients from aclnn_cpu.convolution_backward called directly."""
    n = x.dim() - 2
    transposed = isinstance(layer, torch.nn.modules.conv._ConvTransposeNd)
    output_padding = list(layer.output_padding) if transposed else [0] * n
    return list(aclnn_cpu.convolution_backward(r, x.detach(), layer.weight.detach(), [r.shape[1]],
                                               list(layer.stride), list(layer.padding), list(layer.dilation),
                                               transposed, output_padding, layer.groups, [True, True, True],
                                               **kwargs))


@pytest.mark.parametrize("name", LAYERS)
def test_every_conv_layer_is_intercepted_and_restored(name: str) -> None:
    layer, x, r = layer_and_input(name)
    native = backward(layer, x, r)
    calls = at.intercepted_calls()
    with at.enable(cube_math_type=1):
        assert at.is_enabled()
        ours = backward(layer, x, r)
    assert at.intercepted_calls() == calls + 1
    assert not at.is_enabled()
    want = direct(layer, x, r, cube_math_type=1)
    assert [raw(t) for t in ours] == [raw(t) for t in want]
    # HF32 operands: not what PyTorch's float32 kernel gives, so the interception is visible in the bits.
    assert [raw(t) for t in ours[:2]] != [raw(t) for t in native[:2]]
    assert [raw(t) for t in backward(layer, x, r)] == [raw(t) for t in native]


class Model(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.up = torch.nn.ConvTranspose2d(8, 4, 4, stride=2, padding=1)
        self.head = torch.nn.Conv1d(4, 2, 3)

    def forward(self, x: Any) -> Tuple[Any, ...]:
        a = self.conv(x)
        b = self.up(torch.relu(a))
        c = self.head(b.flatten(2))
        return a, b, c


def test_a_models_gradients_are_the_direct_calls_bitwise() -> None:
    torch.manual_seed(1)
    model = Model()
    x = torch.randn(2, 3, 6, 6, requires_grad=True)
    with at.enable(soc="Ascend950"):
        a, b, c = model(x)
        for t in (a, b, c):
            t.retain_grad()
        c.square().sum().backward()
    layers = [(model.conv, x, a), (model.up, torch.relu(a), b), (model.head, b.flatten(2), c)]
    for layer, inp, out in layers:
        want = direct(layer, inp, out.grad, soc="Ascend950", cube_math_type="torch_npu")
        assert raw(layer.weight.grad) == raw(want[1]), layer
        assert raw(layer.bias.grad) == raw(want[2]), layer
    assert raw(x.grad) == raw(direct(model.conv, x, a.grad, soc="Ascend950", cube_math_type="torch_npu")[0])


def test_the_default_is_what_torch_npu_passes() -> None:
    layer, x, r = layer_and_input("Conv2d", seed=2)
    with at.enable():
        ours = backward(layer, x, r)
    assert [raw(t) for t in ours] == [raw(t) for t in direct(layer, x, r, cube_math_type=3)]


def test_nested_blocks_use_the_innermost_settings() -> None:
    layer, x, r = layer_and_input("Conv2d", seed=3)
    native = backward(layer, x, r)
    with at.enable(cube_math_type=0):
        outer = backward(layer, x, r)
        with at.enable(soc="Ascend950", cube_math_type=1):
            inner = backward(layer, x, r)
        assert at.is_enabled()
        outer_again = backward(layer, x, r)
    assert not at.is_enabled()
    assert [raw(t) for t in inner] == [raw(t) for t in direct(layer, x, r, soc="Ascend950", cube_math_type=1)]
    assert [raw(t) for t in outer] == [raw(t) for t in direct(layer, x, r, cube_math_type=0)]
    assert [raw(t) for t in outer_again] == [raw(t) for t in outer]
    assert [raw(t) for t in backward(layer, x, r)] == [raw(t) for t in native]


def test_concurrent_blocks_each_use_their_own_and_others_the_oldest() -> None:
    layer, x, r = layer_and_input("Conv2d", seed=4)
    wants = {soc: [raw(t) for t in direct(layer, x, r, soc=soc, cube_math_type=1)]
             for soc in ("Ascend950", "Ascend910B")}
    assert wants["Ascend950"] != wants["Ascend910B"]
    opened, release = threading.Barrier(3), threading.Barrier(3)
    got: Dict[str, List[bytes]] = {}
    # A copy of the layer per thread (autograd accumulates into .grad), made here: torch's generator is global.
    copies = {key: layer_and_input("Conv2d", seed=4) for key in ("Ascend950", "Ascend910B", "outside")}

    first_entered = threading.Event()

    def in_block(soc: str) -> None:
        mine, xi, ri = copies[soc]
        with at.enable(soc=soc, cube_math_type=1):
            first_entered.set()
            opened.wait()
            for _ in range(3):
                got[soc] = [raw(t) for t in backward(mine, xi, ri)]
            release.wait()

    threads = [threading.Thread(target=in_block, args=(soc,)) for soc in ("Ascend950", "Ascend910B")]
    threads[0].start()
    try:
        first_entered.wait()
        threads[1].start()
        opened.wait()
        # This thread has no block of its own: the oldest block open applies, Ascend950's.
        outside = [raw(t) for t in backward(*copies["outside"])]
        release.wait()
    finally:
        for t in threads:
            t.join()
    assert got["Ascend950"] == wants["Ascend950"]
    assert got["Ascend910B"] == wants["Ascend910B"]
    assert outside == wants["Ascend950"]
    assert not at.is_enabled()


def test_an_unknown_product_fails_at_enable_and_registers_nothing() -> None:
    with pytest.raises(ValueError, match="soc"):
        with at.enable(soc="Ascend111"):
            pass
    assert not at.is_enabled()
    with pytest.raises(ValueError, match="cube_math_type"):
        with at.enable(cube_math_type="fast"):
            pass


def test_double_backward_takes_first_order_gradients_from_aclnn_cpu_only() -> None:
    layer, x, r = layer_and_input("Conv2d", seed=5)
    with at.enable(cube_math_type=1):
        calls = at.intercepted_calls()
        gx, = torch.autograd.grad((layer(x) * r).sum(), x, create_graph=True)
        assert at.intercepted_calls() == calls + 1
        gw, = torch.autograd.grad(gx.square().sum(), layer.weight)
        assert at.intercepted_calls() == calls + 1  # PyTorch's formula for the second derivative
    assert raw(gx.detach()) == raw(direct(layer, x, r, cube_math_type=1)[0])
    assert gw.shape == layer.weight.shape


def test_float64_inside_a_block_is_a_type_error() -> None:
    layer = torch.nn.Conv2d(2, 2, 3).double()
    with at.enable():
        with pytest.raises(TypeError, match="float64"):
            layer(torch.randn(1, 2, 5, 5, dtype=torch.float64)).sum().backward()


def test_import_aclnn_cpu_does_not_import_torch_and_the_submodule_does_not_shadow_it() -> None:
    script = textwrap.dedent("""
        import sys
        import aclnn_cpu
        assert "torch" not in sys.modules, "import aclnn_cpu imported torch"
        import aclnn_cpu.torch
        import torch
        assert aclnn_cpu.torch.torch is torch  # the submodule's own torch is PyTorch
        assert aclnn_cpu.torch is not torch
        ones = [torch.ones(s) for s in ((2, 2, 7, 7), (2, 2, 7, 7), (2, 2, 1, 1))]
        gi, gw, gb = aclnn_cpu.convolution_backward(*ones, [2], [1, 1], [0, 0], [1, 1], False, [0, 0], 1,
                                                    [True] * 3, cube_math_type=1)
        assert isinstance(gi, torch.Tensor) and float(gw.flatten()[0]) == 98.0
        print("ok")
    """)
    done = run_python(script, python_env())
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
