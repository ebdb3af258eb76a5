# Introduction to PyTorch (Autograd, the profiler) and PyTorch for former Torch users (hooks),
# plus autograd.functional and a GRU.
import minitorch as torch
from minitorch.autograd.functional import hessian, jacobian, jvp, vjp

x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = (x ** 2 * torch.sin(x)).sum()
y.backward()
print(x.grad)


def f(a):
    return a.exp() * a.sum()


inp = torch.tensor([0.1, 0.2, -0.3])
print(jacobian(f, inp))
print(hessian(lambda a: (a ** 3).sum() * a[0], inp))
print(vjp(f, inp, torch.tensor([1.0, 0.0, -1.0]))[1])
print(jvp(f, inp, torch.tensor([1.0, 1.0, 1.0]))[1])

# the profiler: which operations ran (their times differ from run to run, so not printed)
m = torch.nn.Linear(4, 2)
xin = torch.ones(3, 4)
with torch.autograd.profiler.profile() as prof:
    with torch.autograd.profiler.record_function("model_forward"):
        out = m(xin).relu().sum()
    out.backward()
keys = {e.key for e in prof.key_averages()}
print(sorted(k for k in keys if k in ("model_forward", "aten::addmm", "aten::relu", "aten::sum",
                                      "AddmmBackward0", "ReluBackward0", "SumBackward0")))
print(prof.key_averages().table(sort_by="cpu_time_total").splitlines()[1].split())


# hooks, as in "PyTorch for former Torch users"
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(3, 4)
        self.fc2 = torch.nn.Linear(4, 2)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


net = Net()
with torch.no_grad():
    for i, p in enumerate(net.parameters()):
        p.copy_(torch.cos(torch.arange(p.numel(), dtype=torch.float32) + i).reshape(p.shape))


def printnorm(self, input, output):
    print("Inside " + self.__class__.__name__ + " forward")
    print("input size:", input[0].size())
    print("output norm:", f"{output.detach().norm().item():.5f}")


def printgradnorm(self, grad_input, grad_output):
    print("Inside " + self.__class__.__name__ + " backward")
    print("grad_input sizes:", [None if g is None else tuple(g.shape) for g in grad_input])
    print("grad_output norm:", f"{grad_output[0].norm().item():.5f}")


net.fc2.register_forward_hook(printnorm)
net.fc2.register_backward_hook(printgradnorm)
out = net(torch.tensor([[1.0, -2.0, 0.5]], requires_grad=True))
out.sum().backward()

# a GRU, one of the recurrent layers
gru = torch.nn.GRU(2, 3, num_layers=2, batch_first=True, bidirectional=True)
with torch.no_grad():
    for i, p in enumerate(gru.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.5 + i)
                .reshape(p.shape) * 0.4)
seq = torch.tensor([[[0.1, 0.2], [0.3, -0.1], [0.0, 0.5]]])
output, h_n = gru(seq)
print(output.shape, h_n.shape)
print(output.detach())
output.sum().backward()
print(gru.weight_hh_l0_reverse.grad[:2])
