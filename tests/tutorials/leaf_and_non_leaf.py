# Understanding requires_grad, retain_grad, leaf and non-leaf tensors (beginner tutorial).
import minitorch as torch
import minitorch.nn.functional as F

torch.manual_seed(0)
x = torch.ones(1, 3)
W = torch.ones(3, 2, requires_grad=True)
b = torch.ones(1, 2, requires_grad=True)
y = torch.ones(1, 2)
z = (x @ W) + b
y_pred = F.relu(z)
loss = F.mse_loss(y_pred, y)
print(f"{x.is_leaf=}")
print(f"{z.is_leaf=}")
print(f"{x.requires_grad=}")
print(f"{W.requires_grad=}")
print(f"{z.requires_grad=}")
loss.backward()
print(f"{W.grad=}")
print(f"{b.grad=}")
print(f"{x.grad=}")
print(f"{y.grad=}")
print(f"{z.grad=}")
z = (x @ W) + b
y_pred = F.relu(z)
loss = F.mse_loss(y_pred, y)
z.retain_grad()
y_pred.retain_grad()
loss.retain_grad()
W.grad = None
b.grad = None
loss.backward()
print(f"{W.grad=}")
print(f"{b.grad=}")
print(f"{z.grad=}")
print(f"{y_pred.grad=}")
print(f"{loss.grad=}")
print(x.retains_grad, W.retains_grad, z.retains_grad, loss.retains_grad)
W.retain_grad()
print(W.retains_grad)
try:
    x.retain_grad()
except Exception as e:
    print(type(e).__name__, e)
x2 = torch.ones(1, 3)
try:
    (x2 * 2).sum().backward()
except Exception as e:
    print(type(e).__name__, e)
