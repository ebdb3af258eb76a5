# What is torch.nn really? The CNN section: Conv2d, ReLU and adaptive average pooling, trained
# with Adagrad; forward and backward hooks peek inside.
import minitorch as torch
import minitorch.nn.functional as F
from minitorch import nn, optim

bs = 4
xb = torch.sin(torch.arange(bs * 64, dtype=torch.float32) * 0.21).reshape(bs, 64)
yb = torch.tensor([0, 3, 1, 2])


class Lambda(nn.Module):
    def __init__(self, func):
        super().__init__()
        self.func = func

    def forward(self, x):
        return self.func(x)


model = nn.Sequential(
    Lambda(lambda x: x.view(-1, 1, 8, 8)),
    nn.Conv2d(1, 4, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.Conv2d(4, 5, kernel_size=3, stride=2, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    Lambda(lambda x: x.view(x.size(0), -1)),
)
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.9 + i)
                .reshape(p.shape) * 0.5)


def print_size(module, args, output):
    print(f"{module.__class__.__name__}: {tuple(args[0].shape)} -> {tuple(output.shape)}")


def print_grad_norm(module, grad_input, grad_output):
    print(f"{module.__class__.__name__} grad_output norm: {grad_output[0].norm().item():.6f}")


handles = [model[1].register_forward_hook(print_size),
           model[5].register_forward_hook(print_size),
           model[3].register_full_backward_hook(print_grad_norm)]
loss = F.cross_entropy(model(xb), yb)
loss.backward()
for h in handles:
    h.remove()
print(f"loss {loss.item():.6f}")

opt = optim.Adagrad(model.parameters(), lr=0.1)
for epoch in range(5):
    loss = F.cross_entropy(model(xb), yb)
    loss.backward()
    opt.step()
    opt.zero_grad()
    print(epoch, f"{loss.item():.6f}")
print(model(xb).argmax(1))
print(F.adaptive_avg_pool2d(torch.arange(30.0).reshape(1, 5, 6), (2, 4)))
print(F.adaptive_max_pool2d(torch.arange(30.0).reshape(1, 5, 6), 2))
print(nn.AdaptiveAvgPool2d((5, 7)), nn.AdaptiveMaxPool1d(3))
