# Visualizing gradients (intermediate tutorial): retain_grad, hooks on intermediate tensors, BatchNorm.
import minitorch as torch
import minitorch.nn as nn
import minitorch.nn.functional as F
import minitorch.optim as optim

torch.manual_seed(0)

def fc_layer(in_size, out_size, norm_layer):
    return nn.Sequential(nn.Linear(in_size, out_size), norm_layer(out_size), nn.Sigmoid())

class Net(nn.Module):
    def __init__(self, in_size=28*28, hidden_size=128,
                 out_size=10, num_layers=3, batchnorm=False):
        super().__init__()
        if batchnorm is False:
            norm_layer = nn.Identity
        else:
            norm_layer = nn.BatchNorm1d
        layers = []
        layers.append(fc_layer(in_size, hidden_size, norm_layer))
        for i in range(num_layers-1):
            layers.append(fc_layer(hidden_size, hidden_size, norm_layer))
        layers.append(nn.Linear(hidden_size, out_size))
        self.layers = nn.Sequential(*layers)
    def forward(self, x):
        x = torch.flatten(x, 1)
        return self.layers(x)

x = torch.randn(10, 28, 28)
y = torch.randint(10, (10, ))
model_bn = Net(batchnorm=True, num_layers=3)
model_nobn = Net(batchnorm=False, num_layers=3)
model_bn.train()
model_nobn.train()
optimizer_bn = optim.SGD(model_bn.parameters(), lr=0.01, momentum=0.9)
optimizer_nobn = optim.SGD(model_nobn.parameters(), lr=0.01, momentum=0.9)
print(model_bn.layers[0])
print(model_nobn.layers[0])
print(model_bn)

def hook_forward(module_name, grads, hook_backward):
    def hook(module, args, output):
        output.register_hook(hook_backward(module_name, grads))
    return hook

def hook_backward(module_name, grads):
    def hook(grad):
        grads.append((module_name, grad))
    return hook

def get_all_layers(model, hook_forward, hook_backward):
    layers = dict()
    grads = []
    for name, layer in model.named_modules():
        if any(layer.children()) is False:
            layers[layer] = name
            layer.register_forward_hook(hook_forward(name, grads, hook_backward))
    return layers, grads

layers_bn, grads_bn = get_all_layers(model_bn, hook_forward, hook_backward)
layers_nobn, grads_nobn = get_all_layers(model_nobn, hook_forward, hook_backward)
print(list(layers_bn.values()))
epochs = 10
for epoch in range(epochs):
    grads_bn.clear()
    grads_nobn.clear()
    optimizer_bn.zero_grad()
    optimizer_nobn.zero_grad()
    y_pred_bn = model_bn(x)
    y_pred_nobn = model_nobn(x)
    loss_bn = F.cross_entropy(y_pred_bn, y)
    loss_nobn = F.cross_entropy(y_pred_nobn, y)
    loss_bn.backward()
    loss_nobn.backward()
    optimizer_bn.step()
    optimizer_nobn.step()
    print(epoch, loss_bn, loss_nobn)

def get_grads(grads):
    layer_idx = []
    avg_grads = []
    for idx, (name, grad) in enumerate(grads):
        if grad is not None:
            avg_grad = grad.abs().mean()
            avg_grads.append(avg_grad)
            layer_idx.append(len(grads) - 1 - idx)
    return layer_idx, avg_grads

layer_idx_bn, avg_grads_bn = get_grads(grads_bn)
layer_idx_nobn, avg_grads_nobn = get_grads(grads_nobn)
print([n for n, g in grads_bn])
print(layer_idx_bn, avg_grads_bn)
print(layer_idx_nobn, avg_grads_nobn)
