# Double Backward with Custom Functions (intermediate tutorial): gradcheck, gradgradcheck,
# save_for_backward of inputs, outputs and intermediates, once_differentiable.
import minitorch as torch

torch.manual_seed(0)

class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**2

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return grad_out * 2 * x

x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(Square.apply, x))
print(torch.autograd.gradgradcheck(Square.apply, x))

x = torch.tensor(1., requires_grad=True).clone()
out = Square.apply(x)
grad_x, = torch.autograd.grad(out, x, create_graph=True)
print(grad_x, x, out)
print(grad_x.grad_fn, grad_x.grad_fn.next_functions)
print(out.grad_fn.next_functions)

class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = torch.exp(x)
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_out):
        result, = ctx.saved_tensors
        return result * grad_out

x = torch.tensor(1., requires_grad=True, dtype=torch.double).clone()
print(torch.autograd.gradcheck(Exp.apply, x))
print(torch.autograd.gradgradcheck(Exp.apply, x))
out = Exp.apply(x)
grad_x, = torch.autograd.grad(out, x, create_graph=True)
print(grad_x, x, out)
print(type(grad_x.grad_fn).__name__, [type(f).__name__ for f, _ in grad_x.grad_fn.next_functions])

class Sinh(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.save_for_backward(expx, expnegx)
        return (expx - expnegx) / 2, expx, expnegx

    @staticmethod
    def backward(ctx, grad_out, _grad_out_exp, _grad_out_negexp):
        expx, expnegx = ctx.saved_tensors
        grad_input = grad_out * (expx + expnegx) / 2
        grad_input += _grad_out_exp * expx
        grad_input -= _grad_out_negexp * expnegx
        return grad_input

def sinh(x):
    return Sinh.apply(x)[0]

x = torch.rand(3, 3, requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(sinh, x))
print(torch.autograd.gradgradcheck(sinh, x))
out = sinh(x)
grad_x, = torch.autograd.grad(out.sum(), x, create_graph=True)
print(grad_x, x, out, sep="\n")

class SinhBad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        expx = torch.exp(x)
        expnegx = torch.exp(-x)
        ctx.expx = expx
        ctx.expnegx = expnegx
        return (expx - expnegx) / 2

    @staticmethod
    def backward(ctx, grad_out):
        expx = ctx.expx
        expnegx = ctx.expnegx
        grad_input = grad_out * (expx + expnegx) / 2
        return grad_input

out = SinhBad.apply(x)
grad_x, = torch.autograd.grad(out.sum(), x, create_graph=True)
print(grad_x, x, out, sep="\n")
print(grad_x.requires_grad, grad_x.grad_fn)
try:
    print(torch.autograd.gradgradcheck(SinhBad.apply, x))
except Exception as e:
    print(type(e).__name__, e)
print(torch.autograd.gradgradcheck(SinhBad.apply, x, raise_exception=False))

def cube_forward(x):
    return x**3

def cube_backward(grad_out, x):
    return grad_out * 3 * x**2

def cube_backward_backward(grad_out, sav_grad_out, x):
    return grad_out * sav_grad_out * 6 * x

def cube_backward_backward_grad_out(grad_out, x):
    return grad_out * 3 * x**2

class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return cube_forward(x)

    @staticmethod
    def backward(ctx, grad_out):
        x, = ctx.saved_tensors
        return CubeBackward.apply(grad_out, x)

class CubeBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, grad_out, x):
        ctx.save_for_backward(x, grad_out)
        return cube_backward(grad_out, x)

    @staticmethod
    def backward(ctx, grad_out):
        x, sav_grad_out = ctx.saved_tensors
        dx = cube_backward_backward(grad_out, sav_grad_out, x)
        dgrad_out = cube_backward_backward_grad_out(grad_out, x)
        return dgrad_out, dx

x = torch.tensor(2., requires_grad=True, dtype=torch.double)
print(torch.autograd.gradcheck(Cube.apply, x))
print(torch.autograd.gradgradcheck(Cube.apply, x))
out = Cube.apply(x)
grad_x, = torch.autograd.grad(out, x, create_graph=True)
print(grad_x, x, out)
print(grad_x.grad_fn.next_functions)
