# Tensor views, and in-place operations with autograd, as PyTorch's notes "Tensor Views" and
# "Autograd mechanics" (In-place operations) explain them: a view shares its base's memory and
# version counter; an in-place change made through a view rewrites the base's history.
import minitorch as torch

# A view shares the data of its base: a change made through one shows in the other.
t = torch.arange(16.0).reshape(4, 4)
b = t.view(2, 8)
print(b.data_ptr() == t.data_ptr(), b._base is t)
b[0][0] = 3.14
print(t[0][0])
print(t.t().is_contiguous(), t.t()._base is t, t[1:, 2].storage_offset())

# Indexing down to one element gives a view too.
x = torch.arange(6.0)
old = x[2]
x[2] = 50.0
print(old, old._base is x, x._version, old._version)
y = torch.arange(6.0).reshape(2, 3)
y[1, 2].add_(10)
y[0].mul_(-1)
print(y)

# In-place correctness checks: every tensor (and its views) has a version counter.
a = torch.tensor([0.5, 1.0, 1.5], requires_grad=True)
c = a * 2
d = c.sin()  # sin saves c for backward
c[0].mul_(2)  # ...and a view of c changes it
print(c._version)
try:
    d.sum().backward()
except RuntimeError as e:
    print(str(e).split(", which")[0])
    print(str(e).split("is at ")[1].split(" Hint")[0])

# In-place operations on a view of a tensor in a graph: the base's history is rewritten.
y = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
z = y * 2
view = z[1:]
view.mul_(3)
print(z)
print(view)
print(z.grad_fn.name(), [f[0].name() if f[0] else None for f in z.grad_fn.next_functions])
print(view.grad_fn.name(), view._version, z._version)
z.sum().backward()
print(y.grad)

# `+=` through an index, and a masked assignment, on a recorded tensor
w = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.3, -0.7]], requires_grad=True)
out = w * 3
out[:, 0] += 1
out[out < 0] = 0
print(out)
out.sum().backward()
print(w.grad)

# A view made before its base changed follows the base's new history.
p = torch.tensor([1.0, -2.0, 3.0, -4.0], requires_grad=True)
q = p * p
first = q[:2]
q[2:].mul_(p[:2])
print(first.grad_fn.name(), first.grad_fn.next_functions[0][0].name())
((first * 10).sum() + q.sum()).backward()
print(p.grad)

# Second derivatives go through the rewritten graph too.
s = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
r = s ** 2
r[1:].mul_(s[:2])
(g,) = torch.autograd.grad(r.sum(), s, create_graph=True)
print(g)
g.sum().backward()
print(s.grad)

# The views of a leaf that requires grad may not be changed in place (outside no_grad).
leaf = torch.ones(3, requires_grad=True)
try:
    leaf[0].mul_(2)
except RuntimeError as e:
    print(e)
try:
    leaf[1:] = 0.0
except RuntimeError as e:
    print(e)
with torch.no_grad():  # as an optimizer does
    leaf[0] -= 0.5
    leaf[1:].mul_(3)
print(leaf, leaf._version)

# Views that one op returns together cannot be changed in place while recorded.
pieces = (leaf * 1).unbind()
try:
    pieces[0].add_(1)
except RuntimeError as e:
    print(e)

# A recurrent loop that fills a buffer row by row: out[t] = h
W = torch.tensor([[0.2, -0.4, 0.1], [0.5, 0.3, -0.2], [-0.3, 0.1, 0.4]], requires_grad=True)
inputs = torch.tensor([[1.0, 0.0, -1.0], [0.5, 0.5, 0.5], [-1.0, 2.0, 0.0], [0.0, 1.0, 1.0]])
hs = torch.zeros(4, 3)
h = torch.zeros(3)
for step in range(4):
    h = torch.tanh(W @ h + inputs[step])
    hs[step] = h
print(hs.grad_fn.name(), hs._version)
loss = (hs ** 2).sum()
loss.backward()
print(loss)
print(W.grad)
