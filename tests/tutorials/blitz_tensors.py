# 60 Minute Blitz (Tensors) and Introduction to PyTorch (Tensors in depth).
import minitorch as torch
import minitorch.functional as TF

x = torch.tensor([[0.5, -1.5, 2.25], [3.0, 0.0, -0.75]])
y = torch.ones(2, 3)
result = torch.empty(2, 3)
torch.add(x, y, out=result)
print(result)
y.add_(x)
print(y)
print(x[:, 1], x[range(2)], x[:, range(1, 3)])
c = torch.zeros(2, 2)
old_id = id(c)
torch.matmul(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([[0.5, 0.0], [0.0, 2.0]]),
             out=c)
print(c, id(c) == old_id)
r = torch.empty(2, 2)
torch.mul(c, 2, out=r)
print(r)

# math functions and in-place variants
a = torch.tensor([0.1, 0.5, 0.9])
print(torch.ceil(x), torch.floor(x), torch.asin(a), torch.acos(a), torch.atan(a))
print(torch.bitwise_xor(torch.tensor([3, 5, 7]), torch.tensor([1, 1, 1])))
print(torch.prod(torch.tensor([1.0, 2.0, 3.0, 4.0])), torch.unique(torch.tensor([3, 1, 3, 2])))
print(torch.unique(torch.tensor([3, 1, 3, 2]), return_inverse=True, return_counts=True))
b = a.clone()
print(b.sin_(), b.exp_(), b.sqrt_(), b.log_(), b.abs_(), b.clamp_(0.0, 0.5))
m = torch.ones(3, 2)
print(m.unsqueeze_(0).shape, m.squeeze_().shape, m.t_().shape)
acc = torch.zeros(3, 2)
acc.index_add_(0, torch.tensor([0, 2, 0]), torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
print(acc)

# linear algebra
A = torch.tensor([[4.0, 1.0], [2.0, 3.0]])
print(torch.linalg.inv(A), torch.linalg.det(A), torch.linalg.solve(A, torch.tensor([1.0, 2.0])))
print(torch.linalg.norm(A), torch.linalg.vector_norm(A, ord=1), torch.linalg.matrix_norm(A, 1))

# torch.functional
xs, ys = TF.meshgrid(torch.tensor([1, 2, 3]), torch.tensor([4, 5]), indexing="ij")
print(xs, ys)
print(TF.broadcast_tensors(torch.tensor([[1], [2]]), torch.tensor([3, 4, 5]))[1])
print(TF.tensordot(torch.arange(6.0).reshape(2, 3), torch.arange(3.0), dims=1))
print(TF.atleast_2d(torch.tensor(1.5)))
