"""The PyTorch "Neural Networks" tutorial, run unchanged with ``import minitorch as torch``.

https://pytorch.org/tutorials/beginner/blitz/neural_networks_tutorial.html

The script below is the tutorial's code. It runs twice in fresh interpreters: once with the
real PyTorch, once with ``torch`` (and ``torch.nn``, ``torch.optim``, ...) pointing at
minitorch. The printed outputs must be the same, except for the random numbers and the
object addresses.
"""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("torch", reason="PyTorch is the test oracle; install torch==2.13.0")

TUTORIAL = textwrap.dedent('''
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class Net(nn.Module):

        def __init__(self):
            super(Net, self).__init__()
            # 1 input image channel, 6 output channels, 5x5 square convolution
            # kernel
            self.conv1 = nn.Conv2d(1, 6, 5)
            self.conv2 = nn.Conv2d(6, 16, 5)
            # an affine operation: y = Wx + b
            self.fc1 = nn.Linear(16 * 5 * 5, 120)  # 5*5 from image dimension
            self.fc2 = nn.Linear(120, 84)
            self.fc3 = nn.Linear(84, 10)

        def forward(self, input):
            # Convolution layer C1: 1 input image channel, 6 output channels,
            # 5x5 square convolution, it uses RELU activation function, and
            # outputs a Tensor with size (N, 6, 28, 28), where N is the size of the batch
            c1 = F.relu(self.conv1(input))
            # Subsampling layer S2: 2x2 grid, purely functional,
            # this layer does not have any parameter, and outputs a (N, 6, 14, 14) Tensor
            s2 = F.max_pool2d(c1, (2, 2))
            # Convolution layer C3: 6 input channels, 16 output channels,
            # 5x5 square convolution, it uses RELU activation function, and
            # outputs a (N, 16, 10, 10) Tensor
            c3 = F.relu(self.conv2(s2))
            # Subsampling layer S4: 2x2 grid, purely functional,
            # this layer does not have any parameter, and outputs a (N, 16, 5, 5) Tensor
            s4 = F.max_pool2d(c3, 2)
            # Flatten operation: purely functional, outputs a (N, 400) Tensor
            s4 = torch.flatten(s4, 1)
            # Fully connected layer F5: (N, 400) Tensor input,
            # and outputs a (N, 120) Tensor, it uses RELU activation function
            f5 = F.relu(self.fc1(s4))
            # Fully connected layer F6: (N, 120) Tensor input,
            # and outputs a (N, 84) Tensor, it uses RELU activation function
            f6 = F.relu(self.fc2(f5))
            # Gaussian layer OUTPUT: (N, 84) Tensor input, and
            # outputs a (N, 10) Tensor
            output = self.fc3(f6)
            return output


    net = Net()
    print(net)

    params = list(net.parameters())
    print(len(params))
    print(params[0].size())  # conv1's .weight

    input = torch.randn(1, 1, 32, 32)
    out = net(input)
    print(out)

    net.zero_grad()
    out.backward(torch.randn(1, 10))

    output = net(input)
    target = torch.randn(10)  # a dummy target, for example
    target = target.view(1, -1)  # make it the same shape as output
    criterion = nn.MSELoss()

    loss = criterion(output, target)
    print(loss)

    print(loss.grad_fn)  # MSELoss
    print(loss.grad_fn.next_functions[0][0])  # Linear
    print(loss.grad_fn.next_functions[0][0].next_functions[0][0])  # ReLU

    net.zero_grad()     # zeroes the gradient buffers of all parameters

    print('conv1.bias.grad before backward')
    print(net.conv1.bias.grad)

    loss.backward()

    print('conv1.bias.grad after backward')
    print(net.conv1.bias.grad)

    learning_rate = 0.01
    for f in net.parameters():
        f.data.sub_(f.grad.data * learning_rate)

    import torch.optim as optim

    # create your optimizer
    optimizer = optim.SGD(net.parameters(), lr=0.01)

    # in your training loop:
    optimizer.zero_grad()   # zero the gradient buffers
    output = net(input)
    loss = criterion(output, target)
    loss.backward()
    optimizer.step()    # Does the update

    # (not in the tutorial) show that the update did something, and the optimizer
    print(optimizer)
    print(criterion(net(input), target) < loss)
''')

# Make ``import torch`` and ``import torch.x`` find minitorch and its submodules.
ALIAS = textwrap.dedent('''
    import sys
    import minitorch, minitorch.nn, minitorch.nn.functional, minitorch.optim
    import minitorch.utils.data
    for name, module in list(sys.modules.items()):
        if name == "minitorch" or name.startswith("minitorch."):
            sys.modules["torch" + name[len("minitorch"):]] = module
''')

SEED = "import torch\ntorch.manual_seed(0)\n"


def _start(prelude: str) -> subprocess.Popen:
    code = prelude + SEED + TUTORIAL
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _finish(process: subprocess.Popen) -> str:
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    return out


def _normalise(text: str) -> str:
    text = re.sub(r"0x[0-9a-fA-F]+", "0xADDR", text)
    text = re.sub(r"-?\d+\.\d*(e[+-]?\d+)?", "NUM", text)
    text = re.sub(r"\[\s+", "[", text)  # the column alignment depends on the signs
    return re.sub(r"\s+", " ", text).strip()


@pytest.fixture(scope="module")
def outputs():
    torch_run, minitorch_run = _start(""), _start(ALIAS)  # both at once
    return _finish(torch_run), _finish(minitorch_run)


def test_tutorial_output_matches_torch(outputs):
    theirs, ours = outputs
    assert _normalise(ours) == _normalise(theirs)


def test_tutorial_structure_is_printed_exactly(outputs):
    theirs, ours = outputs
    # print(net), len(params) and params[0].size() involve no random numbers at all
    head = theirs.split("tensor(")[0]
    assert ours.startswith(head)
    assert "torch.Size([6, 1, 5, 5])" in ours
    for line in ("<MseLossBackward0 object at", "<AddmmBackward0 object at",
                 "<AccumulateGrad object at", "conv1.bias.grad before backward\nNone\n",
                 "SGD (\nParameter Group 0\n", "tensor(True)"):
        assert line in ours
