# Pruning (intermediate tutorial): torch.nn.utils.prune on a LeNet, random input.
import minitorch as torch
import minitorch.nn.functional as F
import minitorch.nn.utils.prune as prune
from minitorch import nn

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 3)
        self.conv2 = nn.Conv2d(6, 16, 3)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), (2, 2))
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = x.flatten(start_dim=1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

model = LeNet().to(device=device)
module = model.conv1
print(list(module.named_parameters()))
print(list(module.named_buffers()))
prune.random_unstructured(module, name="weight", amount=0.3)
print(list(module.named_parameters()))
print(list(module.named_buffers()))
print(module.weight)
print(module._forward_pre_hooks)
prune.l1_unstructured(module, name="bias", amount=3)
print(list(module.named_parameters()))
print(list(module.named_buffers()))
print(module.bias)
print(module._forward_pre_hooks)
prune.ln_structured(module, name="weight", amount=0.5, n=2, dim=0)
print(module.weight)
for hook in module._forward_pre_hooks.values():
    if hook._tensor_name == "weight":
        break
print(list(hook))
print(model.state_dict().keys())
x = torch.randn(2, 1, 28, 28)
print(model(x))
print(list(module.named_parameters()))
print(list(module.named_buffers()))
print(module.weight)
prune.remove(module, 'weight')
print(list(module.named_parameters()))
print(list(module.named_buffers()))

new_model = LeNet()
for name, module in new_model.named_modules():
    if isinstance(module, torch.nn.Conv2d):
        prune.l1_unstructured(module, name='weight', amount=0.2)
    elif isinstance(module, torch.nn.Linear):
        prune.l1_unstructured(module, name='weight', amount=0.4)
print(dict(new_model.named_buffers()).keys())
print(new_model(x))

model = LeNet()
parameters_to_prune = (
    (model.conv1, 'weight'),
    (model.conv2, 'weight'),
    (model.fc1, 'weight'),
    (model.fc2, 'weight'),
    (model.fc3, 'weight'),
)
prune.global_unstructured(parameters_to_prune, pruning_method=prune.L1Unstructured, amount=0.2)
for n in ["conv1", "conv2", "fc1", "fc2", "fc3"]:
    w = getattr(model, n).weight
    print(f"Sparsity in {n}.weight: {100. * float(torch.sum(w == 0)) / float(w.nelement()):.2f}%")
print(
    "Global sparsity: {:.2f}%".format(
        100. * float(
            torch.sum(model.conv1.weight == 0)
            + torch.sum(model.conv2.weight == 0)
            + torch.sum(model.fc1.weight == 0)
            + torch.sum(model.fc2.weight == 0)
            + torch.sum(model.fc3.weight == 0)
        )
        / float(
            model.conv1.weight.nelement()
            + model.conv2.weight.nelement()
            + model.fc1.weight.nelement()
            + model.fc2.weight.nelement()
            + model.fc3.weight.nelement()
        )
    )
)
print(model(x))

class FooBarPruningMethod(prune.BasePruningMethod):
    PRUNING_TYPE = 'unstructured'

    def compute_mask(self, t, default_mask):
        mask = default_mask.clone()
        mask.flatten()[::2] = 0
        return mask

def foobar_unstructured(module, name):
    FooBarPruningMethod.apply(module, name)
    return module

model = LeNet()
foobar_unstructured(model.fc3, name='bias')
print(model.fc3.bias_mask)
# extra: random_structured, identity, custom_from_mask, is_pruned, errors
m = nn.Linear(5, 4)
prune.random_structured(m, "weight", amount=2, dim=0)
print(m.weight_mask)
prune.random_structured(m, "weight", amount=0.5, dim=1)
print(m.weight_mask)
print(prune.is_pruned(m), prune.is_pruned(nn.Linear(2, 2)))
m2 = nn.Linear(3, 2)
prune.identity(m2, "bias")
print(m2.bias_mask, m2._forward_pre_hooks)
prune.custom_from_mask(m2, "weight", torch.tensor([[1, 0, 1], [0, 1, 1]]))
print(m2.weight_mask, m2.weight)
for f in [lambda: prune.remove(nn.Linear(2, 2), "weight"),
          lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=5),
          lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=-1),
          lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount=1.5),
          lambda: prune.l1_unstructured(nn.Linear(2, 2), "weight", amount="a"),
          lambda: prune.ln_structured(nn.Linear(2, 2), "bias", amount=1, n=2, dim=0),
          lambda: prune.ln_structured(nn.Linear(2, 2), "weight", amount=1, n=2, dim=2),
          lambda: prune.global_unstructured(3, prune.L1Unstructured, amount=1),
          lambda: prune.global_unstructured([(m2, "weight")], prune.RandomStructured, amount=1),
          ]:
    try:
        f()
    except Exception as e:
        print(type(e).__name__, e)
