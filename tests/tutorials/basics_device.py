# Learn the Basics: Quickstart / Build the Model, with `import minitorch as torch`.
import minitorch as torch
from minitorch import nn

device = (
    torch.accelerator.current_accelerator().type
    if torch.accelerator.is_available()
    else "mps" if torch.backends.mps.is_available() else "cpu"
)
print(f"Using {device} device")
# the older spelling
device = "cuda" if torch.cuda.is_available() else "cpu"
torch.set_default_device(device)
print(torch.get_default_device())
print(torch.backends.cudnn.is_available(), torch.backends.mps.is_built())


class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(4 * 4, 12),
            nn.ReLU(),
            nn.Linear(12, 12),
            nn.ReLU(),
            nn.Linear(12, 3),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits


model = NeuralNetwork().to(device)
print(model)
with torch.no_grad():  # fixed weights instead of random ones
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.sin(torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i)
                .reshape(p.shape) * 0.3)

X = torch.FloatTensor([[[(r * 4 + c) / 16.0 for c in range(4)] for r in range(4)]])
logits = model(X)
pred_probab = nn.Softmax(dim=1)(logits)
y_pred = pred_probab.argmax(1)
print(f"Predicted class: {y_pred}")
print(pred_probab)
for name, param in model.named_parameters():
    print(f"Layer: {name} | Size: {param.size()} | Values : {param[:2]} \n")
print(torch.LongTensor([1, 2, 3]), torch.FloatTensor(2, 3).shape, torch.DoubleTensor([0.5]))
print(isinstance(X, torch.FloatTensor), torch.ByteTensor([1, 255]))
torch.set_default_device(None)
